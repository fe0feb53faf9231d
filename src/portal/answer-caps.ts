// How large a gateway answer may be, per resource. The bridge runs with a 64 MB heap, and reading an
// answer holds it twice for a moment: the decoded text and the parsed records. Polish text is two
// bytes a character in V8, so an answer of N bytes costs about 4N of heap (a 15.8 MB one took the
// heap past 64 MB). The caps follow what each resource holds (spec 2): a school year of records for
// the long lists (a declaration that says `yearOfRecords`, src/resources/), one record or a short
// lookup for the rest, each with a wide margin, and small enough that two accounts reading their
// largest answer at once still fit beside the bridge.
const MB = 1024 * 1024;

/** A school year of records (a declaration's `yearOfRecords`): about 190 days of up to 10 lessons, or a school's announcements. */
export const LIST_ANSWER_BYTES = 4 * MB;
/** Any other answer: one record, a week, a month or a school's lookup (the largest, the skills list, is about 330 KB). */
export const ANSWER_BYTES = 2 * MB;
/** An answer at least this large is marked before it is read (store/heavy-answers.ts), so that a crash while reading it is remembered. */
export const HEAVY_ANSWER_BYTES = MB;
