/**
 * What an analyst's query may contain. Everything here is an allow-list: a function, a
 * syntax-tree node type or a clause that is not listed is refused (fail closed), so a new
 * parser version or an unusual construct can only make the sandbox stricter.
 */

/** The one table analysts query: the view `events` in their project's own database. */
export const EVENTS_TABLE = 'events';

/**
 * Aggregate functions (ClickHouse 18.16 and later). Combinator suffixes (-If, -Array, ...)
 * are allowed on any of them, see `isAllowedFunction`.
 */
const AGGREGATES = `
count sum avg min max any anylast anyheavy argmin argmax
uniq uniqexact uniqcombined uniqcombined64 uniqhll12 uniqupto uniqtheta
groupArray groupUniqArray groupArrayInsertAt groupArrayMovingSum groupArrayMovingAvg groupArraySample
groupBitAnd groupBitOr groupBitXor groupBitmap groupBitmapAnd groupBitmapOr groupBitmapXor
sumWithOverflow sumKahan sumMap minMap maxMap topK topKWeighted avgWeighted
quantile quantiles quantileExact quantilesExact quantileExactWeighted quantilesExactWeighted
quantileTiming quantilesTiming quantileTimingWeighted quantilesTimingWeighted
quantileTDigest quantilesTDigest quantileTDigestWeighted quantilesTDigestWeighted
quantileDeterministic quantilesDeterministic quantileExactLow quantileExactHigh
median medianExact medianTiming medianTDigest medianDeterministic
varSamp varPop stddevSamp stddevPop covarSamp covarPop corr skewSamp skewPop kurtSamp kurtPop
simpleLinearRegression histogram entropy boundingRatio
windowFunnel retention sequenceMatch sequenceCount
`;

/** Window functions (modern ClickHouse; 18.16 has none, its own error then applies). */
const WINDOW_FUNCTIONS = `
row_number rank dense_rank percent_rank cume_dist ntile lag lead lagInFrame leadInFrame
first_value last_value nth_value
`;

/**
 * Scalar functions: arithmetic, comparison, logic, conditionals, type conversion, dates,
 * strings, arrays, tuples, hashing, JSON extraction. Deliberately absent: dictionaries
 * (dictGet*), anything that names a table or a file (joinGet, hasColumnInTable, file, url,
 * in/globalIn used as functions), server introspection (currentDatabase, currentUser,
 * hostName, FQDN, version, uptime, getSetting, getMacro, timezone, tcpPort, buildId,
 * filesystem*), and sleep/sleepEachRow/throwIf. `format` is absent because it also names a
 * table function.
 */
const SCALARS = `
plus minus multiply divide intDiv intDivOrZero modulo moduloOrZero negate abs gcd lcm
equals notEquals less greater lessOrEquals greaterOrEquals and or not xor
if multiIf ifNull nullIf coalesce assumeNotNull isNull isNotNull toNullable isFinite isInfinite isNaN
greatest least
round roundBankers roundToExp2 roundDown roundDuration roundAge floor ceil ceiling trunc truncate
exp exp2 exp10 log ln log2 log10 sqrt cbrt pow power sin cos tan asin acos atan atan2 sinh cosh tanh
pi e erf erfc lgamma tgamma sign hypot
bitAnd bitOr bitXor bitNot bitShiftLeft bitShiftRight bitTest bitCount
rand rand32 rand64 randConstant generateUUIDv4
toInt8 toInt16 toInt32 toInt64 toUInt8 toUInt16 toUInt32 toUInt64 toFloat32 toFloat64
toInt8OrZero toInt16OrZero toInt32OrZero toInt64OrZero toUInt8OrZero toUInt16OrZero toUInt32OrZero toUInt64OrZero
toFloat32OrZero toFloat64OrZero toInt8OrNull toInt16OrNull toInt32OrNull toInt64OrNull toUInt8OrNull
toUInt16OrNull toUInt32OrNull toUInt64OrNull toFloat32OrNull toFloat64OrNull
toDecimal32 toDecimal64 toDecimal128 toString toFixedString toStringCutToZero toUUID toTypeName cast
toDate toDateOrZero toDateOrNull toDateTime toDateTimeOrZero toDateTimeOrNull
parseDateTimeBestEffort parseDateTimeBestEffortOrNull parseDateTimeBestEffortOrZero
now today yesterday toYear toQuarter toMonth toDayOfYear toDayOfMonth toDayOfWeek toHour toMinute toSecond
toMonday toStartOfWeek toStartOfMonth toStartOfQuarter toStartOfYear toStartOfISOYear toStartOfDay
toStartOfHour toStartOfMinute toStartOfFiveMinute toStartOfFiveMinutes toStartOfTenMinutes
toStartOfFifteenMinutes toStartOfInterval toTime toUnixTimestamp fromUnixTimestamp toISOWeek toISOYear
toWeek toYearWeek toYYYYMM toYYYYMMDD toYYYYMMDDhhmmss toRelativeYearNum toRelativeQuarterNum
toRelativeMonthNum toRelativeWeekNum toRelativeDayNum toRelativeHourNum toRelativeMinuteNum
toRelativeSecondNum formatDateTime dateDiff date_diff dateTrunc date_trunc timeSlot timeSlots
addYears addQuarters addMonths addWeeks addDays addHours addMinutes addSeconds
subtractYears subtractQuarters subtractMonths subtractWeeks subtractDays subtractHours subtractMinutes subtractSeconds
toIntervalYear toIntervalQuarter toIntervalMonth toIntervalWeek toIntervalDay toIntervalHour
toIntervalMinute toIntervalSecond
length lengthUTF8 char_length character_length empty notEmpty lower upper lcase ucase lowerUTF8 upperUTF8
reverse reverseUTF8 concat concatWithSeparator substring substr mid substringUTF8 left right
appendTrailingCharIfAbsent startsWith endsWith trim trimLeft trimRight trimBoth ltrim rtrim
leftPad rightPad lpad rpad repeat space
position positionCaseInsensitive positionUTF8 positionCaseInsensitiveUTF8 locate countSubstrings
like notLike ilike notILike match extract extractAll extractGroups replaceOne replaceAll replace
replaceRegexpOne replaceRegexpAll regexpQuoteMeta splitByChar splitByString splitByRegexp
arrayStringConcat alphaTokens toValidUTF8 visibleWidth
multiSearchAny multiSearchFirstIndex multiSearchFirstPosition multiSearchAllPositions multiMatchAny
ngramDistance ngramSearch
base64Encode base64Decode tryBase64Decode hex unhex lowerUTF8 normalizeQuery
MD5 SHA1 SHA224 SHA256 cityHash64 sipHash64 sipHash128 farmHash64 metroHash64 xxHash32 xxHash64
murmurHash2_32 murmurHash2_64 murmurHash3_32 murmurHash3_64 intHash32 intHash64 javaHash halfMD5
array arrayJoin arrayMap arrayFilter arrayExists arrayAll arrayCount arraySum arrayMin arrayMax arrayAvg
arrayFirst arrayFirstIndex arrayLast arrayLastIndex arraySort arrayReverseSort arrayUniq arrayDistinct
arrayEnumerate arrayEnumerateUniq arrayEnumerateDense arrayConcat arraySlice arrayPushBack arrayPushFront
arrayPopBack arrayPopFront arrayReverse arrayResize arrayReduce arrayCumSum arrayCumSumNonNegative
arrayDifference arrayCompact arrayZip arrayIntersect arrayFlatten flatten arraySplit arrayAUC
arrayElement has hasAll hasAny hasSubstr indexOf countEqual range emptyArrayString emptyArrayUInt8
emptyArrayFloat64 arrayWithConstant
tuple tupleElement untuple
greatCircleDistance pointInPolygon pointInEllipses geohashEncode geohashDecode L2Norm L2Distance
IPv4NumToString IPv4StringToNum IPv6NumToString IPv6StringToNum
visitParamHas visitParamExtractUInt visitParamExtractInt visitParamExtractFloat visitParamExtractBool
visitParamExtractRaw visitParamExtractString
JSONHas JSONLength JSONType JSONExtract JSONExtractUInt JSONExtractInt JSONExtractFloat JSONExtractBool
JSONExtractString JSONExtractRaw JSONExtractArrayRaw JSONExtractKeys
formatReadableSize formatReadableQuantity bar transform runningDifference neighbor identity
materialize ignore toColumnTypeName
`;

/**
 * `COLUMNS('regexp')` / `COLUMNS(a, b)`: ClickHouse's column matcher (modern servers; 18.16
 * answers "Unknown function"), written like a call. It picks columns of the query's own FROM
 * items, which the FROM/JOIN checks bound to `events`, WITH names and checked subqueries.
 */
const MATCHERS = `columns`;

/** Combinators that may end an aggregate function's name, e.g. uniqIf, sumArray, avgOrNull. */
const COMBINATORS = [
  'if',
  'array',
  'foreach',
  'ornull',
  'ordefault',
  'distinct',
  'state',
  'merge',
  'mergestate',
  'resample',
];

const words = (list: string) =>
  new Set(
    list
      .trim()
      .split(/\s+/)
      .map((w) => w.toLowerCase()),
  );
const AGGREGATE_SET = words(AGGREGATES);
const SCALAR_SET = new Set([...words(SCALARS), ...words(WINDOW_FUNCTIONS), ...words(MATCHERS)]);

/**
 * ClickHouse function names are case-sensitive except for SQL-standard aliases registered
 * case-insensitively; comparing in lower case accepts `COUNT` and `Sum` and cannot admit a
 * function that is not listed, because no listed name collides case-insensitively with an
 * unlisted ClickHouse function.
 */
export function isAllowedFunction(name: string): boolean {
  let lower = name.toLowerCase();
  if (SCALAR_SET.has(lower) || AGGREGATE_SET.has(lower)) return true;
  // Strip combinators from the end (uniqExactIf, sumArrayIf, quantilesIfOrNull ...).
  for (let stripped = true; stripped;) {
    stripped = false;
    for (const suffix of COMBINATORS) {
      if (lower.length > suffix.length && lower.endsWith(suffix)) {
        lower = lower.slice(0, -suffix.length);
        stripped = true;
        if (AGGREGATE_SET.has(lower)) return true;
        break;
      }
    }
  }
  return false;
}

/**
 * Syntax-tree node types (enum variants of sqlparser-rs's AST, serialised as `{"Variant": …}`)
 * a query may contain: statement and query structure, select items, join kinds, expressions,
 * literals (only single-quoted strings: other string forms tokenise differently in
 * ClickHouse), ordering, windows and SAMPLE. Anything else — other statements, table
 * functions, UNNEST, PIVOT, placeholders, dollar-quoted strings, MATCH … AGAINST — is refused. Table factors
 * (`Table`, `Derived`, `NestedJoin`) are absent on purpose: only the FROM/JOIN checker
 * accepts them, where their names are checked.
 */
export const ALLOWED_NODES: ReadonlySet<string> = new Set(
  `
  Query Select SetOperation Subquery Distinct On Expressions All LimitOffset OffsetCommaLimit Offset Limit
  UnnamedExpr ExprWithAlias Wildcard QualifiedWildcard ObjectName
  Inner Left Right LeftOuter RightOuter FullOuter CrossJoin Join Semi LeftSemi RightSemi Anti LeftAnti RightAnti
  AsOf Using Natural
  Identifier CompoundIdentifier CompoundFieldAccess Subscript Index Slice Dot BinaryOp UnaryOp Nested Tuple Array
  Value TypedString Interval Function List Unnamed Expr Lambda One Many
  Case Cast Extract Substring Trim Position Ceil Floor DateTimeField
  Between Like ILike InList InSubquery Exists IsNull IsNotNull IsTrue IsFalse IsNotTrue IsNotFalse
  IsDistinctFrom IsNotDistinctFrom AtTimeZone
  Number SingleQuotedString HexStringLiteral Boolean Null
  OrderByExpr WindowSpec NamedWindow Rows Range Groups CurrentRow Preceding Following
  Sample AfterTableAlias BeforeTableAlias Bernoulli System Block Row
  Rollup Cube GroupingSets
  `
    .trim()
    .split(/\s+/),
);

/** Clauses that change where results go or how the server runs the query. */
export const FORBIDDEN_CLAUSES: Readonly<Record<string, string>> = {
  settings: 'SETTINGS',
  format_clause: 'FORMAT',
  into: 'INTO',
  for_clause: 'FOR XML/JSON',
  locks: 'FOR UPDATE/SHARE',
  top: 'TOP',
  fetch: 'FETCH',
  pipe_operators: 'pipe operators (|>)',
  connect_by: 'CONNECT BY',
  lateral_views: 'LATERAL VIEW',
};

/**
 * Fields of syntax-tree nodes that may be set (non-empty) in an accepted query. A set field
 * that is not listed — a clause of another SQL dialect or of a newer parser — is refused.
 * Fields ending in `_token` only record where keywords were and are not walked.
 */
export const KNOWN_FIELDS: ReadonlySet<string> = new Set(
  `
  body projection from selection prewhere group_by having order_by limit_clause limit offset limit_by
  distinct set_quantifier op left right query subquery cte_tables
  relation joins join_operator global alias explicit name columns args parameters duplicate_treatment
  clauses over partition_by order_by window_frame units start_bound end_bound window_name named_window
  expr exprs list negated low high pattern escape_char any value kind data_type format
  access_chain root index lower_bound upper_bound stride key
  condition conditions result else_result operand
  leading_field leading_precision last_field fractional_seconds_precision
  field syntax special substring_from substring_for trim_where trim_what trim_characters
  params quote_style options asc nulls_first elem named sample modifier quantity parenthesized
  time_zone timestamp flavor
  with_fill to step window_before_qualify opt_except first_element additional_elements
  `
    .trim()
    .split(/\s+/),
);
