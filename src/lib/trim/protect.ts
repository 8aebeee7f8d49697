/**
 * What the JSON trimmer never cuts: keys that name an identifier, a URL or a time, and string
 * values that look like a URL or an ISO timestamp. Such strings are kept whole or dropped whole.
 */

const ID_NAME =
  /^(id|ids|uuid|guid|slug|hash|sha|version|release|fingerprint|shortId|eventID|url|uri|href|link|permalink|timestamp|start|end|date|time|datetime|created|updated|received|expires)$/i;
const ID_CAMEL =
  /[a-z0-9](Id|ID|Ids|IDs|Uuid|UUID|Hash|Slug|Sha|SHA|Version|Url|URL|Uri|URI|Href|Link|Permalink|Timestamp|At|Seen|Date|Time|Created|Updated|Received)$/;
const ID_SNAKE = /[-_](id|ids|uuid|hash|slug|sha|version|url|uri|href|link|timestamp|at|date|time)$/i;
const DATE_PREFIX = /^date[A-Z]/;
const URL_VALUE = /^https?:\/\//i;
const ISO_VALUE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Whether a key names an identifier, a URL or a time (its string values are never cut). */
export function isIdentityKey(key: string): boolean {
  return ID_NAME.test(key) || ID_CAMEL.test(key) || ID_SNAKE.test(key) || DATE_PREFIX.test(key);
}

/** Whether a string under `key` (its nearest object key) must be kept whole or dropped whole. */
export function isProtectedText(key: string | undefined, value: string): boolean {
  return (key !== undefined && isIdentityKey(key)) || URL_VALUE.test(value) || ISO_VALUE.test(value);
}
