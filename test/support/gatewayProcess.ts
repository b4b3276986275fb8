// A test gateway in a process of its own, for tests of several processes on one database
// (SQLite's writer lock blocks its whole process, so two in one process would stall each other).
// The parent sets its clock and asks it to run due schedules over IPC, or to claim an occurrence
// and pay nothing, as a process that dies right after its claim.
// Env: DATA_DIR, SCHEMA_URL (PostgreSQL, optional), CARD_KEY, CLOCK_MS.
import { startGateway, TestClock } from './gateway.ts';
import { claimWithoutPaying } from './schedules.ts';

export interface Command {
  id: number;
  /** Set the clock to this epoch ms first. */
  at?: number;
  /** Then fire the due schedules (answered with how many this process fired). */
  run?: boolean;
  /** Or claim the due occurrence of this schedule and never pay it (answered with 1 when claimed). */
  claim?: string;
  close?: boolean;
}
export interface Answer {
  id: number;
  fired: number;
}

const HOUR = 60 * 60 * 1000;
const clock = new TestClock(new Date(Number(process.env.CLOCK_MS)));
const gw = await startGateway({
  dataDir: process.env.DATA_DIR,
  schemaUrl: process.env.SCHEMA_URL || undefined,
  cardKey: process.env.CARD_KEY,
  clock,
  // Only the parent's commands fire schedules.
  schedulePollMs: HOUR,
  webhookPollMs: HOUR,
});
process.send!({ base: gw.base });
process.on('message', (command: Command) => {
  void (async () => {
    if (command.at !== undefined) clock.current = new Date(command.at);
    const fired = command.run
      ? await gw.running.runSchedules()
      : command.claim
        ? Number((await claimWithoutPaying(gw.running.store, command.claim, clock.now().getTime())) !== undefined)
        : 0;
    if (command.close) await gw.close();
    process.send!({ id: command.id, fired } satisfies Answer, () => {
      if (command.close) process.exit(0);
    });
  })();
});
