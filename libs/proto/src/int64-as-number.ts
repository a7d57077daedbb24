import protobuf from 'protobufjs/minimal.js';

// NOTE: protobufjs returns int64 as Long objects whenever the `long` package is loadable. Our
// int64 fields (microsecond timestamps, byte counts) stay far below 2^53, so plain numbers are
// exact and cost nothing to convert on the hot path. This reconfigures the process-wide
// protobufjs runtime, and must run before the generated code is evaluated (it reads
// util.Long once to build its default values): import this module first.
protobuf.util.Long = null as unknown as typeof protobuf.util.Long;
protobuf.configure();
