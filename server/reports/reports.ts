// The settlement reports of an entity: the aggregations of a period, and the records of one.
import type { Entity } from '../config.ts';
import type { Deps } from '../payments/deps.ts';
import type { ReportPeriod, SortOrder } from './params.ts';
import { aggregate, decodeAggregationId, sortRecords, type Aggregation } from './reconciliation.ts';
import { settlementRecords, type ReconciliationRecord } from './settlement.ts';

type ReportEntity = Pick<Entity, 'id' | 'name' | 'merchantName'>;

/** One aggregation per settlement date and currency of the period that has records. */
export async function aggregations(deps: Deps, entity: ReportEntity, period: ReportPeriod): Promise<Aggregation[]> {
  return aggregate(entity.id, await settlementRecords(deps, entity, period.from, period.to), period.order);
}

/** The aggregation with this id and its records in SettlementTxDate order; undefined when the entity has none such. */
export async function aggregationRecords(
  deps: Deps,
  entity: ReportEntity,
  id: string,
  order: SortOrder,
): Promise<{ aggregation: Aggregation; records: ReconciliationRecord[] } | undefined> {
  const named = decodeAggregationId(entity.id, id);
  if (!named) return undefined;
  const records = (await settlementRecords(deps, entity, named.date, named.date)).filter((r) => r.settlementCurrency === named.currency);
  const [aggregation] = aggregate(entity.id, records, 'ASC');
  return aggregation ? { aggregation, records: sortRecords(records, order) } : undefined;
}
