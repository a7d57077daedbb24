#!/usr/bin/env bash
# Run a Kafka command-line tool from the jars install.sh fetched (no Kafka tarball, no
# KafkaJS), against the local broker unless --bootstrap-server says otherwise.
#
#   kafka-tool.sh topics --list
#   kafka-tool.sh topics --describe --topic NAME
#   kafka-tool.sh api-versions
#   kafka-tool.sh console-consumer --topic NAME --from-beginning --max-messages 1
#   kafka-tool.sh some.fully.qualified.MainClass ARGS...
#
# The short names add --bootstrap-server 127.0.0.1:$FRAMEDECK_KAFKA_PORT when absent.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ $# -ge 1 ]] || die "usage: kafka-tool.sh topics|api-versions|console-producer|console-consumer|MainClass [args...]"
[[ -f "$KAFKA_LIBS/.pom.sha256" ]] || die "Kafka jars missing: run infra/local/install.sh kafka"

tool="$1"
shift
case "$tool" in
  topics) class=org.apache.kafka.tools.TopicCommand ;;
  api-versions) class=kafka.admin.BrokerApiVersionsCommand ;;
  console-producer) class=kafka.tools.ConsoleProducer ;;
  console-consumer) class=org.apache.kafka.tools.consumer.ConsoleConsumer ;;
  consumer-groups) class=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ;;
  *) class="$tool" ;;
esac

args=("$@")
if [[ "$class" != "$tool" && " $* " != *" --bootstrap-server "* ]]; then
  args=(--bootstrap-server "$HOST:$KAFKA_PORT" "${args[@]}")
fi
exec java -Xmx256m -cp "$KAFKA_LIBS/*" \
  -Dlog4j.configuration="file:$INFRA_DIR/kafka/tools-log4j.properties" "$class" "${args[@]}"
