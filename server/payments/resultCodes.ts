import type { GatewayEnv } from '../config.ts';
import type { ResultCode } from '../results.ts';

/** Success is 000.100.110 in the test environment (000.100.112 for EXTERNAL test mode), 000.000.000 live. */
export function successCode(env: GatewayEnv, testMode: string | undefined | null): ResultCode {
  if (env === 'live') return '000.000.000';
  return testMode === 'EXTERNAL' ? '000.100.112' : '000.100.110';
}
