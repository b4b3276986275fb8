// Short ids (AN14, dddd.dddd.dddd) of payments, derived from the payment id instead of stored:
// the 12 digits are the id's first 39 bits, so every id with one short id lies in one range of
// ids, and a search by short id is a range scan of the primary key.
const BITS = 39n;
const SHIFT = 128n - BITS;
const LIMIT = 1n << BITS;

/** The short id of a payment id (32 lowercase hex): stable, the same on every read. */
export function shortIdOf(id: string): string {
  const digits = (BigInt(`0x${id}`) >> SHIFT).toString().padStart(12, '0');
  return `${digits.slice(0, 4)}.${digits.slice(4, 8)}.${digits.slice(8)}`;
}

/** The payment ids (inclusive range) whose short id this is; undefined when no id has it. */
export function idRangeOf(shortId: string): { from: string; to: string } | undefined {
  const match = /^(\d{4})\.(\d{4})\.(\d{4})$/.exec(shortId);
  if (!match) return undefined;
  const n = BigInt(match[1]! + match[2]! + match[3]!);
  if (n >= LIMIT) return undefined;
  const hex = (v: bigint) => v.toString(16).padStart(32, '0');
  return { from: hex(n << SHIFT), to: hex(((n + 1n) << SHIFT) - 1n) };
}
