export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// Every response carries one; thousands are answered within the same second.
let lastSecond = Number.NaN;
let lastTimestamp = '';

/** Response timestamps: yyyy-MM-dd HH:mm:ss+0000, always UTC. */
export function responseTimestamp(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond) {
    lastTimestamp =
      `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
      `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+0000`;
    lastSecond = second;
  }
  return lastTimestamp;
}

/** A timestamp in the form requests send them (yyyy-MM-dd HH:mm:ss), in UTC. */
export function requestTimestamp(date: Date): string {
  return responseTimestamp(date).slice(0, 19);
}
