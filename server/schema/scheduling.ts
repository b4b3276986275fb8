// Scheduling (job.*), in the spec's order: a subscription's schedule as Quartz-style cron fields
// (dayOfWeek 1-7 is SUN-SAT), or one cron expression of 6 or 7 fields that overrides them.
// Each field is checked against the spec's allowed content, then by croner, the scheduler's parser.
import { Cron } from 'croner';
import { z } from 'zod';
import { an, dateTime, digits, oneOf } from './common.ts';

interface FieldRule {
  min: number;
  max: number;
  /** Special characters the spec allows in the field. */
  specials: string;
  /** Letters the field allows: weekday names, L, W. */
  words: readonly string[];
  /** The field may be empty (year: every year). */
  empty?: boolean;
}

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** The fields of a cron expression, in its order; the year may be left out. */
export const CRON_FIELDS = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'] as const;
export type CronField = (typeof CRON_FIELDS)[number];

const RULES: Record<CronField, FieldRule> = {
  second: { min: 0, max: 59, specials: ',-*/', words: [] },
  // The spec lists minute as 0-59 with no special characters; every cron, and the expression that
  // overrides it, takes the same ones as second, so minute does too.
  minute: { min: 0, max: 59, specials: ',-*/', words: [] },
  hour: { min: 0, max: 23, specials: ',-*/', words: [] },
  dayOfMonth: { min: 1, max: 31, specials: ',-*?/LW', words: ['L', 'W', 'LW'] },
  month: { min: 1, max: 12, specials: ',-*/', words: [] },
  dayOfWeek: { min: 1, max: 7, specials: ',-*?/L#', words: [...WEEKDAYS, 'L'] },
  year: { min: 1970, max: 2099, specials: ',-*/', words: [], empty: true },
};

const ALLOWED: Record<CronField, string> = {
  second: '0-59 with , - * /',
  minute: '0-59 with , - * /',
  hour: '0-23 with , - * /',
  dayOfMonth: '1-31 with , - * ? / L W',
  month: '1-12 with , - * /',
  dayOfWeek: '1-7 or SUN-SAT with , - * ? / L #',
  year: 'empty, or 1970-2099 with , - * /',
};

// A probe with this field set and every other one open: croner's verdict on one field alone.
const PROBE: Record<CronField, (v: string) => string> = {
  second: (v) => `${v} * * * * ?`,
  minute: (v) => `0 ${v} * * * ?`,
  hour: (v) => `0 0 ${v} * * ?`,
  dayOfMonth: (v) => `0 0 0 ${v} * ?`,
  month: (v) => `0 0 0 * ${v} ?`,
  dayOfWeek: (v) => `0 0 0 ? * ${v}`,
  year: (v) => `0 0 0 * * ? ${v}`,
};

/** A paused croner schedule of a Quartz pattern (UTC, weekdays 1=SUN), for its occurrences; throws when it does not parse. */
export function cronSchedule(pattern: string): Cron {
  // UTC as an offset of 0 rather than the time zone 'UTC': the same occurrences, a third of the
  // cost per nextRun (no Intl time-zone conversion).
  return new Cron(cronerPattern(pattern), { paused: true, utcOffset: 0, alternativeWeekdays: true, mode: '6-or-7-parts', sloppyRanges: true });
}

/** The first year of the year field (the spec's 1970-2099): where Quartz starts a step of '*'. */
const FIRST_YEAR = RULES.year.min;

/** The end of the year field's last year (2099): a schedule has no occurrence after it, whatever its year says. */
export const SCHEDULES_END_MS = Date.UTC(RULES.year.max + 1, 0, 1) - 1;

/**
 * Quartz reads a pattern in any case (it upper-cases it), and an L of its own in dayOfWeek as the
 * week's last day, 7 (SAT); croner knows L only after a day (6L). A step of every year (*\/4, or
 * /4) counts from the field's first year, 1970, in Quartz; croner counts it from year 0, which
 * gives other years for most steps (*\/4: 2028, 2032 … instead of 2026, 2030 …).
 */
function cronerPattern(pattern: string): string {
  const parts = pattern.toUpperCase().trim().split(/\s+/);
  if (parts[5] !== undefined) {
    parts[5] = parts[5]
      .split(',')
      .map((item) => (item === 'L' ? '7' : item))
      .join(',');
  }
  if (parts[6] !== undefined) {
    parts[6] = parts[6]
      .split(',')
      .map((item) => item.replace(/^\*?(?=\/)/, String(FIRST_YEAR)))
      .join(',');
  }
  return parts.join(' ');
}

/** croner's error for a pattern, or undefined when it parses. */
export function cronError(pattern: string): string | undefined {
  try {
    cronSchedule(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^CronPattern: /, '');
  }
}

/** Why a value does not fit the field, or undefined when it does. */
export function checkCronField(field: CronField, value: string): string | undefined {
  const rule = RULES[field];
  const allowed = `must be ${ALLOWED[field]}`;
  if (value === '') return rule.empty ? undefined : `${allowed}, not empty`;
  let previous = '';
  for (const token of value.match(/\d+|[A-Za-z]+|./g) ?? []) {
    if (/^\d+$/.test(token)) {
      const n = Number(token);
      // After / a step, after # the week of the month (1-5); otherwise a value of the field.
      const ok = previous === '/' ? n >= 1 : previous === '#' ? n >= 1 && n <= 5 : n >= rule.min && n <= rule.max;
      if (!ok) return `${allowed} (${token} is out of range)`;
    } else if (/^[A-Za-z]+$/.test(token)) {
      if (!rule.words.includes(token.toUpperCase())) return `${allowed} (${token} is not allowed)`;
    } else if (!rule.specials.includes(token)) {
      return `${allowed} ('${token}' is not allowed)`;
    }
    previous = token;
  }
  // Quartz's offset from the month's last day; croner has no such day.
  if (field === 'dayOfMonth' && /L-\d/i.test(value)) return `${allowed} (L-n, days before the last, is not supported: send L, LW or the days)`;
  const error = cronError(PROBE[field](value));
  return error === undefined ? undefined : `${allowed} (${error})`;
}

/** The longest schedule: job.expression's length (AN256), which the separate fields together keep to as well. */
const EXPRESSION_MAX = 256;

/**
 * The characters a field may hold (digits, its special characters, the letters of its words in
 * either case) as a pattern: checked first, so that the OpenAPI document shows it; the field's
 * full check (ranges, croner) runs after it, and names the character either way.
 */
export function cronFieldPattern(field: CronField): RegExp {
  const rule = RULES[field];
  const letters = [...new Set(rule.words.join('').toUpperCase())].sort().join('');
  // Letters among the specials (L, W) are words: the letters above hold them.
  const specials = rule.specials.replace(/[A-Za-z]/g, '').replace(/[\\\]^-]/g, '\\$&');
  return new RegExp(`^[0-9${letters}${letters.toLowerCase()}${specials}]${rule.empty ? '*' : '+'}$`);
}

const cronField = (field: CronField) =>
  z
    .string()
    .max(EXPRESSION_MAX, { error: `must be at most ${EXPRESSION_MAX} characters`, abort: true })
    .regex(cronFieldPattern(field), { error: (issue) => checkCronField(field, String(issue.input)) ?? `must be ${ALLOWED[field]}`, abort: true })
    .superRefine((v, ctx) => {
      const error = checkCronField(field, v);
      if (error !== undefined) ctx.addIssue({ code: 'custom', message: error });
    })
    .describe(`Must be ${ALLOWED[field]} (a Quartz cron field, UTC).`);

const units = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;

export const job = z
  .strictObject({
    name: an(64).optional(),
    year: cronField('year').optional(),
    month: cronField('month').optional(),
    dayOfMonth: cronField('dayOfMonth').optional(),
    dayOfWeek: cronField('dayOfWeek').optional(),
    hour: cronField('hour').optional(),
    minute: cronField('minute').optional(),
    second: cronField('second').optional(),
    startDate: dateTime.optional(),
    endDate: dateTime.optional(),
    noticeUnit: oneOf(units).optional(),
    durationUnit: oneOf(units).optional(),
    noticeNumber: digits(16).optional(),
    durationNumber: digits(16).optional(),
    noticeCallable: oneOf(['ANYTIME', 'DURATION_END']).optional(),
    expression: an(256).optional(),
  })
  .superRefine((j, ctx) => {
    if (j.dayOfMonth !== undefined && j.dayOfWeek !== undefined && j.dayOfMonth !== '?' && j.dayOfWeek !== '?') {
      ctx.addIssue({ code: 'custom', path: ['dayOfWeek'], message: "cannot be sent with job.dayOfMonth: one of them must be '?'" });
    }
    if (j.dayOfMonth === '?' && (j.dayOfWeek === undefined || j.dayOfWeek === '?')) {
      ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: "is '?' (no day of the month): send job.dayOfWeek to name the days" });
    }
    if (j.startDate !== undefined && j.endDate !== undefined && j.endDate < j.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before job.startDate' });
    }
    if (j.expression !== undefined) {
      const error = checkCronExpression(j.expression);
      if (error !== undefined) ctx.addIssue({ code: 'custom', path: ['expression'], message: error });
    } else {
      // Stored as one expression, as job.expression would be: the fields together fit it too.
      const length = cronOf(j).length;
      const longest = CRON_FIELDS.filter((f) => j[f] !== undefined).sort((a, b) => j[b]!.length - j[a]!.length)[0];
      if (length > EXPRESSION_MAX && longest) {
        ctx.addIssue({ code: 'custom', path: [longest], message: `makes a schedule of ${length} characters; job.second to job.year together take at most ${EXPRESSION_MAX}, as job.expression does` });
      }
    }
  });
export type Job = z.infer<typeof job>;

/** Why an expression is not a schedule the spec allows, or undefined when it is. */
export function checkCronExpression(expression: string): string | undefined {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 6 && parts.length !== 7) {
    return `must have 7 fields (second minute hour dayOfMonth month dayOfWeek year), or 6 without the year; it has ${parts[0] === '' ? 0 : parts.length}`;
  }
  for (const [i, part] of parts.entries()) {
    const field = CRON_FIELDS[i]!;
    const error = checkCronField(field, part);
    if (error !== undefined) return `has a ${field} field '${part}' that ${error}`;
  }
  if (parts[3] !== '?' && parts[5] !== '?') return "cannot have both a dayOfMonth and a dayOfWeek: one of them must be '?'";
  if (parts[3] === '?' && parts[5] === '?') return "cannot have '?' as both dayOfMonth and dayOfWeek: one of them names the days";
  const error = cronError(parts.join(' '));
  return error === undefined ? undefined : `is not a valid cron expression: ${error}`;
}

/**
 * The schedule a job runs on: its expression, or its fields with the spec's defaults. When only
 * one of dayOfMonth and dayOfWeek is sent the other is '?'; when neither is, dayOfMonth is 1.
 */
export function cronOf(j: Job): string {
  if (j.expression !== undefined) return j.expression.trim().split(/\s+/).join(' ');
  const dayOfMonth = j.dayOfMonth ?? (j.dayOfWeek !== undefined && j.dayOfWeek !== '?' ? '?' : '1');
  const dayOfWeek = j.dayOfWeek ?? '?';
  const year = j.year ?? '*';
  return [j.second ?? '0', j.minute ?? '0', j.hour ?? '0', dayOfMonth, j.month ?? '1', dayOfWeek, year].filter((p) => p !== '').join(' ');
}
