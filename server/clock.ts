export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Response timestamps: yyyy-MM-dd HH:mm:ss+0000, always UTC. */
export function responseTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+0000`
  );
}
