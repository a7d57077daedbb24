-- Analyst queries over `events`, written for FrameDeck from ClickHouse's SELECT reference and
-- everyday telemetry questions. Each entry starts with a line
--   -- @query <name> <engines that run it: legacy (18.16) and/or modern (26.x)>
-- and runs until the next such line. analyst-corpus.test.ts runs each one on the selected
-- engine directly (as the project's view exposes the data) and through the sandbox: every
-- query the engine accepts must pass the sandbox; the engine list is checked too.

-- ---- counting and grouping ----
-- @query total-events legacy modern
SELECT count() AS events FROM events
-- @query events-per-name legacy modern
SELECT event_name, count() AS n FROM events GROUP BY event_name ORDER BY n DESC, event_name
-- @query players-and-sessions legacy modern
SELECT uniqExact(player_id) AS players, uniqExact(session_id) AS sessions, uniq(map_id) AS maps FROM events
-- @query events-per-day legacy modern
SELECT toDate(timestamp) AS day, count() AS events, uniqExact(player_id) AS dau FROM events GROUP BY day ORDER BY day
-- @query events-per-hour legacy modern
SELECT toStartOfHour(timestamp) AS hour, count() FROM events GROUP BY hour ORDER BY hour
-- @query fifteen-minute-buckets legacy modern
SELECT toStartOfFifteenMinutes(timestamp) AS bucket, count() AS n FROM events GROUP BY bucket ORDER BY bucket
-- @query interval-buckets modern
SELECT toStartOfInterval(timestamp, INTERVAL 30 minute) AS bucket, avg(fps) AS fps FROM events GROUP BY bucket ORDER BY bucket
-- @query per-platform-fps legacy modern
SELECT platform, round(avg(fps), 2) AS avg_fps, min(fps) AS worst, max(fps) AS best FROM events GROUP BY platform ORDER BY platform
-- @query per-map-and-platform legacy modern
SELECT map_id, platform, count() AS n FROM events GROUP BY map_id, platform ORDER BY map_id, platform
-- @query having-filter legacy modern
SELECT player_id, count() AS n FROM events GROUP BY player_id HAVING n >= 2 ORDER BY player_id
-- @query having-aggregate legacy modern
SELECT map_id FROM events GROUP BY map_id HAVING avg(fps) > 30
-- @query count-distinct-sql legacy modern
SELECT count(DISTINCT player_id) AS players FROM events
-- @query count-star legacy modern
SELECT COUNT(*) AS n FROM events WHERE fps > 0
-- @query distinct-rows legacy modern
SELECT DISTINCT map_id, platform FROM events ORDER BY map_id, platform
-- @query order-limit legacy modern
SELECT player_id, timestamp, fps FROM events ORDER BY fps ASC LIMIT 3
-- @query limit-offset legacy modern
SELECT event_id FROM events ORDER BY timestamp_us LIMIT 2 OFFSET 2
-- @query limit-comma-offset legacy modern
SELECT event_id FROM events ORDER BY timestamp_us LIMIT 2, 2
-- @query order-nulls legacy modern
SELECT camera_pitch FROM events ORDER BY camera_pitch DESC NULLS LAST LIMIT 5
-- @query order-collate-free-desc legacy modern
SELECT map_id, count() AS n FROM events GROUP BY map_id ORDER BY n DESC, map_id ASC
-- @query group-by-position-expression legacy modern
SELECT toDayOfWeek(timestamp) AS dow, count() FROM events GROUP BY toDayOfWeek(timestamp) ORDER BY dow
-- @query with-totals legacy modern
SELECT platform, count() AS n FROM events GROUP BY platform WITH TOTALS ORDER BY platform
-- @query with-rollup legacy modern
SELECT map_id, platform, count() AS n FROM events GROUP BY map_id, platform WITH ROLLUP ORDER BY map_id, platform
-- @query with-cube legacy modern
SELECT map_id, platform, count() AS n FROM events GROUP BY map_id, platform WITH CUBE ORDER BY map_id, platform
-- @query rollup-function legacy modern
SELECT map_id, platform, count() AS n FROM events GROUP BY ROLLUP(map_id, platform) ORDER BY map_id, platform
-- @query cube-function legacy modern
SELECT map_id, platform, count() AS n FROM events GROUP BY CUBE(map_id, platform) ORDER BY map_id, platform
-- @query grouping-sets modern
SELECT map_id, platform, count() AS n FROM events GROUP BY GROUPING SETS ((map_id), (platform)) ORDER BY map_id, platform
-- @query limit-by legacy modern
SELECT player_id, event_name, fps FROM events ORDER BY player_id, fps LIMIT 1 BY player_id
-- @query limit-by-then-limit legacy modern
SELECT map_id, player_id, fps FROM events ORDER BY fps DESC LIMIT 2 BY map_id LIMIT 3
-- @query limit-by-offset modern
SELECT player_id, fps FROM events ORDER BY player_id, fps LIMIT 1, 1 BY player_id
-- @query limit-with-ties modern
SELECT player_id, fps FROM events ORDER BY player_id LIMIT 2 WITH TIES
-- @query order-with-fill modern
SELECT toDate(timestamp) AS day, count() AS n FROM events GROUP BY day ORDER BY day WITH FILL FROM toDate('2026-03-08') TO toDate('2026-03-13')
-- @query order-with-fill-step modern
SELECT toHour(timestamp) AS h, count() AS n FROM events GROUP BY h ORDER BY h WITH FILL STEP 1
-- ---- frame time and performance ----
-- @query fps-quantiles legacy modern
SELECT quantiles(0.5, 0.9, 0.99)(fps) AS q FROM events
-- @query frame-time-p95-by-map legacy modern
SELECT map_id, quantile(0.95)(frame_time_ms) AS p95 FROM events GROUP BY map_id ORDER BY map_id
-- @query exact-median legacy modern
SELECT medianExact(fps) AS median_fps, quantileExact(0.9)(fps) AS p90 FROM events
-- @query tdigest legacy modern
SELECT quantileTDigest(0.5)(fps) AS p50 FROM events
-- @query quantile-timing legacy modern
SELECT quantileTiming(0.5)(toUInt32(fps)) AS t FROM events
-- @query slow-frame-share legacy modern
SELECT map_id, countIf(fps < 30) / count() AS slow_share FROM events GROUP BY map_id ORDER BY map_id
-- @query sum-if-avg-if legacy modern
SELECT sumIf(fps, platform = 'pc') AS pc_fps, avgIf(fps, platform = 'ps5') AS ps5_avg FROM events
-- @query gpu-vs-cpu legacy modern
SELECT platform, avg(gpu_time_ms) AS gpu, avg(game_thread_ms) AS game, avg(render_thread_ms) AS render FROM events GROUP BY platform ORDER BY platform
-- @query memory-readable legacy modern
SELECT formatReadableSize(max(memory_used_bytes)) AS peak FROM events
-- @query histogram-fps legacy modern
SELECT histogram(3)(fps) AS h FROM events
-- @query fps-bands legacy modern
SELECT multiIf(fps < 30, 'bad', fps < 50, 'ok', 'good') AS band, count() AS n FROM events GROUP BY band ORDER BY band
-- @query case-bands legacy modern
SELECT CASE WHEN fps >= 50 THEN 'smooth' WHEN fps >= 30 THEN 'playable' ELSE 'choppy' END AS feel, count() FROM events GROUP BY feel ORDER BY feel
-- @query simple-case legacy modern
SELECT CASE platform WHEN 'pc' THEN 'desktop' WHEN 'ps5' THEN 'console' ELSE 'other' END AS kind, count() FROM events GROUP BY kind ORDER BY kind
-- @query ternary legacy modern
SELECT fps > 40 ? 'fast' : 'slow' AS speed, count() AS n FROM events GROUP BY speed ORDER BY speed
-- @query ternary-parenthesised legacy modern
SELECT (fps > 40) ? 'fast' : 'slow' AS speed FROM events ORDER BY event_id LIMIT 3
-- @query stddev-and-var legacy modern
SELECT stddevPop(fps) AS sd, varSamp(fps) AS var, corr(fps, frame_time_ms) AS r FROM events
-- @query regression modern
SELECT simpleLinearRegression(toFloat64(timestamp_us), toFloat64(fps)) AS fit FROM events
-- @query arg-min-max legacy modern
SELECT argMin(map_id, fps) AS worst_map, argMax(map_id, fps) AS best_map FROM events
-- @query any-anylast legacy modern
SELECT player_id, any(platform) AS platform, anyLast(map_id) AS last_map FROM events GROUP BY player_id ORDER BY player_id
-- @query topk legacy modern
SELECT topK(2)(map_id) AS top_maps FROM events
-- @query group-array legacy modern
SELECT player_id, groupArray(event_name) AS names FROM (SELECT player_id, event_name FROM events ORDER BY timestamp_us) GROUP BY player_id ORDER BY player_id
-- @query group-array-limited legacy modern
SELECT groupArray(2)(fps) AS first_two FROM (SELECT fps FROM events ORDER BY fps)
-- @query group-uniq-array legacy modern
SELECT player_id, arraySort(groupUniqArray(map_id)) AS maps FROM events GROUP BY player_id ORDER BY player_id
-- @query combinator-array legacy modern
SELECT uniqArray(attributes.key) AS keys, sumArray(metrics.value) AS metric_sum FROM events
-- @query combinator-array-if legacy modern
SELECT countArrayIf(attributes.key, platform = 'pc') AS pc_attribute_count FROM events
-- @query combinator-state-merge legacy modern
SELECT uniqMerge(s) AS players FROM (SELECT uniqState(player_id) AS s FROM events GROUP BY map_id)
-- @query combinator-ornull modern
SELECT avgOrNull(fps) AS a, maxOrNull(gpu_time_ms) AS g FROM events WHERE fps > 1000
-- @query combinator-foreach legacy modern
SELECT sumForEach([fps, frame_time_ms]) AS sums FROM events
-- @query combinator-distinct modern
SELECT sumDistinct(toUInt32(fps)) AS s, countDistinct(platform) AS p FROM events
-- @query combinator-resample modern
SELECT countResample(0, 120, 30)(toUInt32(fps)) AS per_band FROM events
-- @query uniq-combined-param legacy modern
SELECT uniqCombined(12)(player_id) AS approx_players FROM events
-- @query uniq-up-to legacy modern
SELECT uniqUpTo(2)(player_id) AS capped FROM events
-- @query avg-weighted modern
SELECT avgWeighted(fps, frame_time_ms) AS fps_by_time FROM events
-- ---- funnels, retention, sequences ----
-- @query window-funnel legacy modern
SELECT player_id, windowFunnel(3600)(timestamp, event_name = 'start', event_name = 'level_up', event_name = 'finish') AS level FROM events GROUP BY player_id ORDER BY player_id
-- @query funnel-distribution legacy modern
SELECT level, count() AS players FROM (SELECT windowFunnel(7200)(timestamp, event_name = 'start', event_name = 'finish') AS level FROM events GROUP BY player_id) GROUP BY level ORDER BY level
-- @query retention legacy modern
SELECT sum(r[1]) AS d0, sum(r[2]) AS d1 FROM (SELECT retention(toDate(timestamp) = toDate('2026-03-10'), toDate(timestamp) = toDate('2026-03-11')) AS r FROM events GROUP BY player_id)
-- @query sequence-match legacy modern
SELECT player_id, sequenceMatch('(?1)(?2)')(timestamp, event_name = 'start', event_name = 'finish') AS finished FROM events GROUP BY player_id ORDER BY player_id
-- @query sequence-count legacy modern
SELECT sequenceCount('(?1).*(?2)')(timestamp, event_name = 'start', event_name = 'level_up') AS n FROM events
-- @query session-length legacy modern
SELECT session_id, dateDiff('second', min(timestamp), max(timestamp)) AS seconds FROM events GROUP BY session_id ORDER BY session_id
-- @query first-seen legacy modern
SELECT player_id, min(timestamp) AS first_seen, max(timestamp) AS last_seen FROM events GROUP BY player_id ORDER BY player_id
-- @query events-per-session legacy modern
SELECT avg(n) AS events_per_session FROM (SELECT session_id, count() AS n FROM events GROUP BY session_id)
-- @query returning-players legacy modern
SELECT count() AS returning FROM (SELECT player_id FROM events GROUP BY player_id HAVING uniqExact(toDate(timestamp)) > 1)
-- @query new-players-per-day legacy modern
SELECT first_day, count() AS new_players FROM (SELECT player_id, min(toDate(timestamp)) AS first_day FROM events GROUP BY player_id) GROUP BY first_day ORDER BY first_day
-- ---- dates and times ----
-- @query date-parts legacy modern
SELECT toYear(timestamp) AS y, toMonth(timestamp) AS m, toDayOfMonth(timestamp) AS d, toHour(timestamp) AS h FROM events ORDER BY timestamp LIMIT 2
-- @query date-format legacy modern
SELECT formatDateTime(timestamp, '%Y-%m-%d %H') AS hour_label, count() FROM events GROUP BY hour_label ORDER BY hour_label
-- @query week-monday legacy modern
SELECT toMonday(timestamp) AS week, count() FROM events GROUP BY week
-- @query yyyymm legacy modern
SELECT toYYYYMM(timestamp) AS month, toYYYYMMDD(timestamp) AS day FROM events LIMIT 1
-- @query interval-arithmetic legacy modern
SELECT count() FROM events WHERE timestamp >= toDateTime('2026-03-11 00:00:00') - INTERVAL 1 DAY
-- @query interval-string legacy modern
SELECT count() FROM events WHERE timestamp > toDateTime('2026-03-10 00:00:00') + INTERVAL '1' HOUR
-- @query interval-function legacy modern
SELECT addDays(toDate(timestamp), 7) AS next_week, subtractHours(timestamp, 2) AS earlier FROM events LIMIT 1
-- @query relative-day legacy modern
SELECT toRelativeDayNum(timestamp) - toRelativeDayNum(toDateTime('2026-03-10 00:00:00')) AS day_index, count() FROM events GROUP BY day_index ORDER BY day_index
-- @query date-diff legacy modern
SELECT dateDiff('minute', toDateTime('2026-03-10 10:00:00'), timestamp) AS minutes FROM events ORDER BY minutes LIMIT 3
-- @query unix-time legacy modern
SELECT toUnixTimestamp(timestamp) AS ts, intDiv(timestamp_us, 1000000) AS from_us FROM events LIMIT 2
-- @query date-literal-compare legacy modern
SELECT count() FROM events WHERE toDate(timestamp) = '2026-03-10'
-- @query between-dates legacy modern
SELECT count() FROM events WHERE timestamp BETWEEN '2026-03-10 00:00:00' AND '2026-03-10 23:59:59'
-- @query date-keyword-literal modern
SELECT count() FROM events WHERE toDate(timestamp) >= DATE '2026-03-10'
-- @query extract-sql legacy modern
SELECT EXTRACT(HOUR FROM timestamp) AS h, count() FROM events GROUP BY h ORDER BY h
-- @query date-trunc modern
SELECT date_trunc('day', timestamp) AS day, count() FROM events GROUP BY day ORDER BY day
-- @query time-slot legacy modern
SELECT timeSlot(timestamp) AS slot, count() FROM events GROUP BY slot ORDER BY slot
-- @query parse-best-effort legacy modern
SELECT count() FROM events WHERE timestamp > parseDateTimeBestEffort('2026-03-10T12:00:00Z')
-- ---- strings ----
-- @query string-functions legacy modern
SELECT upper(map_id) AS m, length(player_id) AS l, concat(platform, '/', map_id) AS path FROM events LIMIT 3
-- @query like-filter legacy modern
SELECT count() FROM events WHERE event_name LIKE 'level%' OR map_id NOT LIKE 'f%'
-- @query ilike-filter modern
SELECT count() FROM events WHERE event_name ILIKE 'START'
-- @query regex-match legacy modern
SELECT count() FROM events WHERE match(player_id, '^p[12]$')
-- @query regex-extract legacy modern
SELECT extract(player_id, '[0-9]+') AS num FROM events GROUP BY num ORDER BY num
-- @query replace-regexp legacy modern
SELECT DISTINCT replaceRegexpAll(event_name, '_', ' ') AS label FROM events ORDER BY label
-- @query split-join legacy modern
SELECT arrayStringConcat(splitByChar('_', event_name), '-') AS name FROM events GROUP BY name ORDER BY name
-- @query position-substring legacy modern
SELECT substring(map_id, 1, 3) AS prefix, position(map_id, 'e') AS at FROM events GROUP BY prefix, at ORDER BY prefix
-- @query starts-ends legacy modern
SELECT countIf(startsWith(map_id, 'for')) AS forest, countIf(endsWith(map_id, 'ert')) AS desert FROM events
-- @query trim-pad modern
SELECT trim(BOTH ' ' FROM concat(' ', map_id, ' ')) AS t, leftPad(player_id, 4, '0') AS padded FROM events LIMIT 2
-- @query hash-bucket legacy modern
SELECT cityHash64(player_id) % 4 AS bucket, count() FROM events GROUP BY bucket ORDER BY bucket
-- @query escaped-string legacy modern
SELECT count() FROM events WHERE event_name != 'it''s' AND event_name != 'a\'b'
-- @query string-concat-operator legacy modern
SELECT platform || ':' || map_id AS k, count() FROM events GROUP BY k ORDER BY k
-- ---- conversions ----
-- @query cast-as legacy modern
SELECT CAST(fps AS UInt32) AS whole_fps, CAST(timestamp AS Date) AS day FROM events LIMIT 2
-- @query cast-string-type legacy modern
SELECT CAST(fps, 'Int64') AS f FROM events LIMIT 2
-- @query cast-operator modern
SELECT fps::UInt32 AS f, '42'::Int64 AS n FROM events LIMIT 2
-- @query to-type-functions legacy modern
SELECT toString(fps) AS s, toUInt8OrZero('x') AS z, toFloat64(frame_time_ms) AS f FROM events LIMIT 1
-- @query nullable-handling legacy modern
SELECT ifNull(camera_yaw, -1) AS yaw, coalesce(camera_pitch, 0) AS pitch, isNull(camera_yaw) AS missing FROM events LIMIT 3
-- @query is-null legacy modern
SELECT countIf(camera_yaw IS NULL) AS no_yaw, countIf(camera_yaw IS NOT NULL) AS with_yaw FROM events
-- @query type-name legacy modern
SELECT toTypeName(position) AS t, toTypeName(attributes.key) AS k FROM events LIMIT 1
-- @query enum-source legacy modern
SELECT source, count() FROM events GROUP BY source ORDER BY source
-- @query enum-as-int legacy modern
SELECT toInt8(source) AS code, count() FROM events GROUP BY code
-- @query uuid-string legacy modern
SELECT toString(event_id) AS id FROM events ORDER BY id LIMIT 1
-- ---- arrays, lambdas, tuples ----
-- @query array-join-nested legacy modern
SELECT a.key AS key, a.value AS value, count() AS n FROM events ARRAY JOIN attributes AS a GROUP BY key, value ORDER BY key, value
-- @query array-join-column legacy modern
SELECT k, count() FROM events ARRAY JOIN attributes.key AS k GROUP BY k ORDER BY k
-- @query array-join-two legacy modern
SELECT k, v FROM events ARRAY JOIN metrics.key AS k, metrics.value AS v ORDER BY v
-- @query left-array-join legacy modern
SELECT event_id, k FROM events LEFT ARRAY JOIN attributes.key AS k ORDER BY event_id, k LIMIT 5
-- @query array-join-function legacy modern
SELECT arrayJoin(attributes.key) AS key, count() FROM events GROUP BY key ORDER BY key
-- @query array-join-literal legacy modern
SELECT x, count() FROM events ARRAY JOIN [1, 2] AS x GROUP BY x ORDER BY x
-- @query array-join-enumerate legacy modern
SELECT k, i FROM events ARRAY JOIN attributes.key AS k, arrayEnumerate(attributes.key) AS i ORDER BY k, i LIMIT 4
-- @query metric-by-index legacy modern
SELECT avg(metrics.value[indexOf(metrics.key, 'ping')]) AS ping FROM events WHERE has(metrics.key, 'ping')
-- @query attribute-by-index legacy modern
SELECT attributes.value[indexOf(attributes.key, 'weapon')] AS weapon, count() FROM events GROUP BY weapon ORDER BY weapon
-- @query lambda-map-filter legacy modern
SELECT arrayMap(x -> x * 2, metrics.value) AS doubled, arrayFilter(k -> k != 'mode', attributes.key) AS keys FROM events LIMIT 3
-- @query lambda-two-args legacy modern
SELECT arrayMap((k, v) -> concat(k, '=', v), attributes.key, attributes.value) AS pairs FROM events WHERE notEmpty(attributes.key) LIMIT 3
-- @query lambda-exists legacy modern
SELECT count() FROM events WHERE arrayExists(k -> k = 'weapon', attributes.key)
-- @query lambda-count-sum legacy modern
SELECT sum(arrayCount(v -> v > 25, metrics.value)) AS high, sum(arraySum(metrics.value)) AS total FROM events
-- @query lambda-sort legacy modern
SELECT arraySort(x -> -x, [3, 1, 2]) AS desc_sorted FROM events LIMIT 1
-- @query array-functions legacy modern
SELECT length(attributes.key) AS n, has(attributes.key, 'mode') AS has_mode, hasAny(attributes.key, ['weapon', 'x']) AS any_of FROM events LIMIT 4
-- @query array-literal-index legacy modern
SELECT [10, 20, 30][2] AS second, arraySlice([1, 2, 3, 4], 2, 2) AS mid FROM events LIMIT 1
-- @query array-reduce legacy modern
SELECT arrayReduce('max', metrics.value) AS max_metric FROM events WHERE notEmpty(metrics.value)
-- @query array-concat-distinct legacy modern
SELECT arrayDistinct(arrayConcat(attributes.key, ['weapon'])) AS keys FROM events LIMIT 2
-- @query range-array legacy modern
SELECT range(3) AS r, arrayCumSum([1, 2, 3]) AS c FROM events LIMIT 1
-- @query tuple-position legacy modern
SELECT position.1 AS x, position.2 AS y, position.3 AS z FROM events LIMIT 2
-- @query tuple-element-function legacy modern
SELECT tupleElement(position, 1) AS x FROM events LIMIT 1
-- @query tuple-of-function legacy modern
SELECT tuple(fps, map_id).2 AS map FROM events LIMIT 1
-- @query tuple-literal-element legacy modern
SELECT (fps, map_id).1 AS f FROM events LIMIT 1
-- @query tuple-qualified-element legacy modern
SELECT e.position.1 AS x FROM events AS e LIMIT 1
-- @query tuple-quoted-element legacy modern
SELECT `position`.2 AS y FROM events LIMIT 1
-- @query tuple-array-element legacy modern
SELECT [position][1].3 AS z FROM events LIMIT 1
-- @query tuple-compare legacy modern
SELECT count() FROM events WHERE (player_id, session_id) IN (('p1', 's1'), ('p2', 's2'))
-- @query tuple-in-subquery legacy modern
SELECT count() FROM events WHERE (player_id, session_id) IN (SELECT player_id, session_id FROM events WHERE event_name = 'finish')
-- @query distance-from-origin legacy modern
SELECT sqrt(position_x * position_x + position_y * position_y) AS r FROM events ORDER BY r LIMIT 2
-- @query heat-grid legacy modern
SELECT floor(position_x / 100) AS gx, floor(position_y / 100) AS gy, count() AS n, avg(fps) AS fps FROM events WHERE has_position = 1 GROUP BY gx, gy ORDER BY gx, gy
-- ---- WITH ----
-- @query with-scalar legacy modern
WITH 30 AS slow SELECT countIf(fps < slow) AS slow_events FROM events
-- @query with-scalar-subquery legacy modern
WITH (SELECT count() FROM events) AS total SELECT event_name, count() / total AS share FROM events GROUP BY event_name ORDER BY event_name
-- @query with-several-expressions legacy modern
WITH 30 AS slow, 55 AS smooth, (SELECT avg(fps) FROM events) AS mean SELECT countIf(fps < slow) AS s, countIf(fps > smooth) AS m, round(mean, 2) AS avg_fps FROM events
-- @query with-array-expression legacy modern
WITH ['start', 'finish'] AS milestones SELECT count() FROM events WHERE has(milestones, event_name)
-- @query with-cte modern
WITH finishers AS (SELECT DISTINCT player_id FROM events WHERE event_name = 'finish') SELECT count() AS n FROM finishers
-- @query with-two-ctes modern
WITH starts AS (SELECT player_id FROM events WHERE event_name = 'start'), finishes AS (SELECT player_id FROM events WHERE event_name = 'finish') SELECT count() FROM starts WHERE player_id IN (SELECT player_id FROM finishes)
-- @query with-mixed-list modern
WITH 40 AS threshold, slow AS (SELECT player_id FROM events WHERE fps < 40) SELECT threshold, count() AS n FROM slow
-- @query with-cte-then-expression modern
WITH daily AS (SELECT toDate(timestamp) AS day, count() AS n FROM events GROUP BY day), (SELECT max(n) FROM daily) AS peak SELECT day, n, n = peak AS is_peak FROM daily ORDER BY day
-- @query with-in-subquery legacy modern
SELECT * FROM (WITH 2 AS factor SELECT player_id, fps * factor AS doubled FROM events) ORDER BY doubled LIMIT 2
-- @query with-cte-join modern
WITH s AS (SELECT session_id, count() AS n FROM events GROUP BY session_id) SELECT e.player_id, max(s.n) AS longest FROM events AS e INNER JOIN s ON e.session_id = s.session_id GROUP BY e.player_id ORDER BY e.player_id
-- ---- subqueries ----
-- @query in-subquery legacy modern
SELECT count() FROM events WHERE player_id IN (SELECT player_id FROM events WHERE event_name = 'finish')
-- @query not-in-subquery legacy modern
SELECT count() FROM events WHERE session_id NOT IN (SELECT session_id FROM events WHERE fps < 30)
-- @query global-in legacy modern
SELECT count() FROM events WHERE player_id GLOBAL IN (SELECT player_id FROM events WHERE platform = 'pc')
-- @query global-not-in legacy modern
SELECT count() FROM events WHERE player_id GLOBAL NOT IN (SELECT player_id FROM events WHERE platform = 'pc')
-- @query scalar-subquery legacy modern
SELECT (SELECT count() FROM events WHERE event_name = 'start') AS starts, count() AS total FROM events
-- @query derived-table legacy modern
SELECT count() AS sessions FROM (SELECT session_id FROM events GROUP BY session_id)
-- @query nested-subqueries legacy modern
SELECT max(n) FROM (SELECT player_id, count() AS n FROM (SELECT player_id, event_name FROM events WHERE event_name IN (SELECT event_name FROM events WHERE fps > 20)) GROUP BY player_id)
-- @query exists-subquery modern
SELECT count() FROM events WHERE EXISTS (SELECT 1 FROM events WHERE event_name = 'finish')
-- @query subquery-in-select-list legacy modern
SELECT map_id, count() AS n, n / (SELECT count() FROM events) AS share FROM events GROUP BY map_id ORDER BY map_id
-- ---- joins ----
-- @query inner-join-on legacy modern
SELECT e.event_name AS event_name, s.n AS n FROM events AS e INNER JOIN (SELECT session_id, count() AS n FROM events GROUP BY session_id) AS s ON e.session_id = s.session_id ORDER BY event_name, n
-- @query join-using legacy modern
SELECT count() FROM events ALL INNER JOIN (SELECT session_id FROM events) AS s USING (session_id)
-- @query any-left-join legacy modern
SELECT count() FROM events AS e ANY LEFT JOIN (SELECT event_id, 1 AS z FROM events) AS s USING (event_id)
-- @query left-join-default legacy modern
SELECT e.player_id AS player, f.finished AS finished FROM events AS e LEFT JOIN (SELECT player_id, 1 AS finished FROM events WHERE event_name = 'finish') AS f ON e.player_id = f.player_id ORDER BY player, finished LIMIT 4
-- @query right-join legacy modern
SELECT count() FROM (SELECT player_id FROM events WHERE platform = 'pc') AS a RIGHT JOIN (SELECT player_id FROM events) AS b ON a.player_id = b.player_id
-- @query full-join legacy modern
SELECT count() FROM (SELECT DISTINCT player_id FROM events WHERE platform = 'pc') AS a FULL OUTER JOIN (SELECT DISTINCT player_id FROM events WHERE platform = 'ps5') AS b USING (player_id)
-- @query cross-join legacy modern
SELECT count() FROM (SELECT DISTINCT map_id FROM events) AS m CROSS JOIN (SELECT DISTINCT platform FROM events) AS p
-- @query comma-join modern
SELECT count() FROM (SELECT DISTINCT map_id FROM events) AS m, (SELECT DISTINCT platform FROM events) AS p
-- @query semi-join modern
SELECT count() FROM events AS e LEFT SEMI JOIN (SELECT player_id FROM events WHERE event_name = 'finish') AS f ON e.player_id = f.player_id
-- @query anti-join modern
SELECT count() FROM events AS e LEFT ANTI JOIN (SELECT player_id FROM events WHERE event_name = 'finish') AS f ON e.player_id = f.player_id
-- @query semi-using legacy modern
SELECT count() FROM events SEMI LEFT JOIN (SELECT DISTINCT player_id FROM events WHERE platform = 'pc') AS f USING (player_id)
-- @query asof-join modern
SELECT e.event_id AS id, s.ts AS previous_start FROM events AS e ASOF LEFT JOIN (SELECT player_id, timestamp AS ts FROM events WHERE event_name = 'start') AS s ON e.player_id = s.player_id AND e.timestamp >= s.ts ORDER BY id LIMIT 3
-- @query asof-using modern
SELECT count() FROM events AS e ASOF JOIN (SELECT player_id, timestamp FROM events WHERE event_name = 'start') AS s USING (player_id, timestamp)
-- @query global-join legacy modern
SELECT count() FROM events GLOBAL ANY LEFT JOIN (SELECT event_id, 1 AS seen FROM events) AS s USING (event_id)
-- @query self-join-next-event legacy modern
SELECT a.event_name AS from_event, b.event_name AS to_event, count() AS n FROM events AS a INNER JOIN events AS b ON a.session_id = b.session_id WHERE b.timestamp > a.timestamp GROUP BY from_event, to_event ORDER BY from_event, to_event
-- @query join-strictness-after modern
SELECT count() FROM events AS e LEFT ANY JOIN (SELECT event_id, 1 AS z FROM events) AS s USING (event_id)
-- ---- set operations ----
-- @query union-all legacy modern
SELECT 'pc' AS p, count() AS n FROM events WHERE platform = 'pc' UNION ALL SELECT 'ps5' AS p, count() AS n FROM events WHERE platform = 'ps5'
-- @query union-distinct modern
SELECT map_id FROM events UNION DISTINCT SELECT map_id FROM events
-- @query union-all-three legacy modern
SELECT count() FROM events WHERE fps < 30 UNION ALL SELECT count() FROM events WHERE fps >= 30 UNION ALL SELECT count() FROM events
-- @query intersect modern
SELECT player_id FROM events WHERE platform = 'pc' INTERSECT SELECT player_id FROM events WHERE event_name = 'finish'
-- @query except-set modern
SELECT player_id FROM events EXCEPT SELECT player_id FROM events WHERE platform = 'pc'
-- @query union-in-subquery legacy modern
SELECT count() FROM (SELECT player_id FROM events WHERE platform = 'pc' UNION ALL SELECT player_id FROM events WHERE platform = 'ps5')
-- ---- window functions ----
-- @query window-row-number modern
SELECT player_id, timestamp, row_number() OVER (PARTITION BY player_id ORDER BY timestamp) AS nth FROM events ORDER BY player_id, nth
-- @query window-running-sum modern
SELECT player_id, timestamp, sum(fps) OVER (PARTITION BY player_id ORDER BY timestamp ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM events ORDER BY player_id, timestamp
-- @query window-rank modern
SELECT map_id, player_id, avg_fps, rank() OVER (PARTITION BY map_id ORDER BY avg_fps DESC) AS r FROM (SELECT map_id, player_id, avg(fps) AS avg_fps FROM events GROUP BY map_id, player_id) ORDER BY map_id, r
-- @query window-lag modern
SELECT session_id, timestamp, lagInFrame(timestamp) OVER (PARTITION BY session_id ORDER BY timestamp ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS previous FROM events ORDER BY session_id, timestamp
-- @query window-named modern
SELECT player_id, fps, avg(fps) OVER w AS player_avg, max(fps) OVER w AS player_max FROM events WINDOW w AS (PARTITION BY player_id) ORDER BY player_id, fps
-- @query window-moving-average modern
SELECT timestamp, avg(fps) OVER (ORDER BY timestamp ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS smoothed FROM events ORDER BY timestamp
-- @query window-dense-rank-share modern
SELECT event_name, n, dense_rank() OVER (ORDER BY n DESC) AS place, n / sum(n) OVER () AS share FROM (SELECT event_name, count() AS n FROM events GROUP BY event_name) ORDER BY place, event_name
-- @query moving-sum modern
SELECT groupArrayMovingSum(2)(fps) AS moving FROM (SELECT fps FROM events ORDER BY timestamp)
-- @query running-difference legacy
SELECT timestamp, runningDifference(toUInt32(timestamp)) AS gap FROM (SELECT timestamp FROM events ORDER BY timestamp)
-- ---- sampling, FINAL, PREWHERE and other clauses ----
-- @query final-modifier legacy modern
SELECT count() FROM events FINAL
-- @query distinct-on modern
SELECT DISTINCT ON (player_id) player_id, event_name FROM events ORDER BY player_id, timestamp
-- @query select-except modern
SELECT * EXCEPT (fps) FROM events ORDER BY event_id LIMIT 1
-- @query select-star legacy modern
SELECT * FROM events ORDER BY timestamp_us LIMIT 2
-- @query qualified-star legacy modern
SELECT e.* FROM events AS e ORDER BY e.timestamp_us LIMIT 1
-- @query alias-reuse legacy modern
SELECT fps * 2 AS double_fps, double_fps + 1 AS plus_one FROM events ORDER BY double_fps LIMIT 2
-- @query quoted-names legacy modern
SELECT `event_name`, "map_id" FROM events WHERE player_id = 'p3' ORDER BY timestamp
-- @query quoted-nested-column legacy modern
SELECT `attributes.key` AS keys FROM events LIMIT 2
-- @query table-alias-qualified legacy modern
SELECT ev.map_id, count() FROM events AS ev GROUP BY ev.map_id ORDER BY ev.map_id
-- @query events-qualified legacy modern
SELECT events.map_id FROM events LIMIT 1
-- @query comments-and-semicolon legacy modern
-- busiest maps first
SELECT map_id, count() AS n /* all events */ FROM events GROUP BY map_id ORDER BY n DESC;
-- @query in-list-values legacy modern
SELECT count() FROM events WHERE event_name IN ('start', 'finish') AND platform NOT IN ('switch')
-- @query in-array-constant modern
SELECT count() FROM events WHERE map_id IN ['forest', 'desert']
-- @query between legacy modern
SELECT count() FROM events WHERE fps BETWEEN 30 AND 60
-- @query not-between modern
SELECT count() FROM events WHERE fps NOT BETWEEN 30 AND 60
-- @query boolean-logic legacy modern
SELECT count() FROM events WHERE (fps < 30 OR frame_time_ms > 33) AND NOT (platform = 'pc' AND map_id = 'forest')
-- @query if-function legacy modern
SELECT if(fps >= 30, 'ok', 'slow') AS verdict, count() FROM events GROUP BY verdict ORDER BY verdict
-- @query arithmetic legacy modern
SELECT intDiv(toUInt32(fps), 10) * 10 AS band, fps % 7 AS rem, -fps AS neg, 1000 / fps AS ms FROM events LIMIT 2
-- @query rounding modern
SELECT round(avg(fps), 1) AS r, floor(avg(fps)) AS f, ceil(avg(fps)) AS c, roundDown(avg(fps), [0, 30, 60]) AS d FROM events
-- @query greatest-least legacy modern
SELECT greatest(fps, 30) AS g, least(fps, 30) AS l FROM events LIMIT 2
-- @query json-extract modern
SELECT JSONExtractString('{"a":"b"}', 'a') AS v, visitParamExtractUInt('{"n":3}', 'n') AS n FROM events LIMIT 1
-- @query sample-clause legacy modern
SELECT count() FROM events SAMPLE 1
-- @query nan-inf-literals legacy modern
SELECT count() FROM events WHERE fps < inf AND NOT isNaN(fps)
-- @query null-literal legacy modern
SELECT NULL AS nothing, [] AS empty FROM events LIMIT 1
-- @query numbers-in-literals legacy modern
SELECT 1e3 AS big, 0.5 AS half, 0x10 AS hex, -3 AS neg FROM events LIMIT 1
-- @query multiline-indented legacy modern
SELECT
    map_id,
    count()               AS events,
    uniqExact(player_id)  AS players
FROM events
WHERE timestamp >= toDateTime('2026-03-01 00:00:00')
GROUP BY map_id
ORDER BY events DESC
-- @query geo-distance legacy modern
SELECT greatCircleDistance(toFloat64(0), toFloat64(0), position_x / 100, position_y / 100) AS d FROM events LIMIT 1
-- @query bar-chart legacy modern
SELECT map_id, count() AS n, bar(n, 0, 10, 10) AS chart FROM events GROUP BY map_id ORDER BY map_id
-- @query transform-map legacy modern
SELECT transform(platform, ['pc', 'ps5'], ['PC', 'PlayStation 5'], 'other') AS label, count() FROM events GROUP BY label ORDER BY label
-- @query array-difference legacy modern
SELECT arrayDifference(groupArray(fps)) AS deltas FROM (SELECT fps FROM events ORDER BY timestamp)
-- ---- bare USING, aliases in GROUP BY, WITH lambdas by name, COLUMNS, DIV/MOD ----
-- @query using-without-parentheses legacy modern
SELECT count() AS n FROM events AS e INNER JOIN (SELECT event_id, fps AS other_fps FROM events) AS s USING event_id
-- @query using-list-without-parentheses legacy modern
SELECT count() AS n FROM events AS e LEFT JOIN (SELECT event_id, session_id, 1 AS seen FROM events) AS s USING event_id, session_id WHERE fps >= 0
-- @query group-by-alias legacy modern
SELECT day, count() AS n FROM events GROUP BY toDate(timestamp) AS day ORDER BY day
-- @query group-by-aliases-with-totals legacy modern
SELECT day, p, count() AS n FROM events GROUP BY toDate(timestamp) AS day, lower(platform) AS p WITH TOTALS ORDER BY day, p
-- @query with-lambda-by-name modern
WITH x -> x * 2 AS double SELECT double(fps) AS doubled FROM events ORDER BY doubled LIMIT 5
-- @query with-lambda-two-arguments modern
WITH (gpu, frame) -> gpu / frame AS share SELECT map_id, round(share(sum(gpu_time_ms), sum(frame_time_ms)), 3) AS gpu_share FROM events GROUP BY map_id ORDER BY map_id
-- @query with-lambda-in-subquery modern
WITH x -> round(x, 1) AS r SELECT map_id, r(avg(fps)) AS fps, (SELECT r(avg(fps)) FROM events) AS overall FROM events GROUP BY map_id ORDER BY map_id
-- @query columns-regexp modern
SELECT COLUMNS('_ms$') FROM events ORDER BY timestamp_us LIMIT 3
-- @query columns-in-aggregate modern
SELECT avg(COLUMNS('^gpu_time_ms$')) AS gpu, COLUMNS('^(platform|map_id)$') FROM events GROUP BY platform, map_id ORDER BY platform, map_id
-- @query div-mod-operators modern
SELECT fps DIV 10 AS bucket, count() AS n, sum(fps MOD 2) AS odd FROM events GROUP BY bucket ORDER BY bucket
