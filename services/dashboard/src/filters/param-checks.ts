/**
 * Checks of values read from a page's URL. A link is shareable, so it is also hand-editable
 * and can go stale: a value the API would refuse is dropped from the URL once, with a note
 * saying so, instead of being sent (and refused with a 400) on every refresh.
 */

/** Why a value is not accepted, or undefined when it is. */
export type ParamCheck = (value: string) => string | undefined;

export const oneOf =
  (allowed: readonly (string | number)[]): ParamCheck =>
  (value) =>
    allowed.map(String).includes(value) ? undefined : `expected one of ${allowed.join(', ')}`;

/** A label the analytics filters pass through (platform ≤ 64 characters, build ≤ 128, as the API accepts). */
export const label =
  (maxLength: number): ParamCheck =>
  (value) =>
    value.length >= 1 && value.length <= maxLength && !/\p{Cc}/u.test(value)
      ? undefined
      : `expected 1 to ${maxLength} printable characters`;

/** A decimal number as the API reads one ("-2.5", "10", "1e3"; not "0x10", " 1" or "Infinity"). */
export const finiteNumber: ParamCheck = (value) =>
  /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value) && Number.isFinite(Number(value))
    ? undefined
    : 'expected a number';

export const wholeNumberIn =
  (min: number, max: number): ParamCheck =>
  (value) => {
    const n = Number(value);
    return /^\d+$/.test(value) && n >= min && n <= max ? undefined : `expected a whole number from ${min} to ${max}`;
  };
