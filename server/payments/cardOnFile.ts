// Card-on-file answers: an approved INITIAL cardholder-initiated payment carries the scheme's
// reference (standingInstruction.initialTransactionId), which the merchant's later
// merchant-initiated payments on the card in full must name (the spec's card-on-file table).
import type { AcquirerOutcome } from '../simulator/acquirer.ts';

export function withInitialTransactionId(details: Record<string, unknown>, outcome: AcquirerOutcome | undefined): Record<string, unknown> {
  const si = details.standingInstruction as Record<string, string> | undefined;
  if (!si || si.mode !== 'INITIAL' || si.source === 'MIT' || !outcome?.approved || !outcome.schemeTransactionId) return details;
  return { ...details, standingInstruction: { ...si, initialTransactionId: outcome.schemeTransactionId } };
}
