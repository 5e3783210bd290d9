// The data-sources screen's rules: the source form (its values, checks with the document's limits
// and the server's rules, and the request body with its write-only secrets), a source's health in
// one word, and the inbox's groups.
import * as z from 'zod/mini';
import { limitsOf } from '../../api/limits';
import type { DataSource, DataSourceForm, DataSourceKind, InboxGroup, KeptReason, NayaxFeed } from '../../api/types';
import { addProblem, text, texts, wholeNumber } from '../../components/form/rules';
import { withVersion } from '../../components/form/values';

const limits = limitsOf('DataSourceForm');
const feedLimits = limitsOf('Feeds');

/** The feeds Nayax Core delivers, one queue each, in the order the screen shows them. */
export const FEEDS = ['transactions', 'events', 'dex'] as const satisfies readonly NayaxFeed[];

/** Why messages are kept, in the order the screen explains them. */
export const KEPT_REASONS = ['unknown_machine', 'unknown_product', 'reversal', 'unreadable'] as const satisfies readonly KeptReason[];

/** The one kind of source there is for now: Nayax Core's deliveries to Amazon SQS. */
export const NAYAX_SQS: DataSourceKind = 'nayax_sqs';

/** The write-only secrets: typed to set, left empty to keep, cleared on purpose. */
export const SECRETS = ['secret_access_key', 'encryption_key'] as const;
export type Secret = (typeof SECRETS)[number];

/** The form's flag that clears a stored secret on save. */
export const CLEAR: Record<Secret, 'clear_secret_access_key' | 'clear_encryption_key'> = {
  secret_access_key: 'clear_secret_access_key',
  encryption_key: 'clear_encryption_key',
};

/** An AWS region as the server takes it: lower-case letters, digits and dashes (`eu-west-1`). */
const REGION = /^[a-z0-9-]+$/;
/** A queue's URL as the server takes it: http(s), no spaces. */
const QUEUE_URL = /^https?:\/\/\S+$/;

export interface SourceValues {
  name: string;
  region: string;
  /** A queue URL per feed; '' for a feed that is not read. */
  feeds: Record<NayaxFeed, string>;
  access_key_id: string;
  /** Never prefilled: what is typed replaces the stored secret; empty keeps it. */
  secret_access_key: string;
  encryption_key: string;
  /** Typed as text: a whole number (Nayax's `enc_ver`). */
  encryption_key_version: string;
  inactive: boolean;
  /** The stored secret is cleared on save (sent as ""). */
  clear_secret_access_key: boolean;
  clear_encryption_key: boolean;
}

/** Whether a secret is stored on the source read (a new source has none). */
export interface StoredSecrets {
  secret_access_key: boolean;
  encryption_key: boolean;
}

export function storedSecrets(source?: DataSource): StoredSecrets {
  return { secret_access_key: Boolean(source?.has_secret_access_key), encryption_key: Boolean(source?.has_encryption_key) };
}

/**
 * The form's checks: the document's lengths and the key version's range, and the server's own
 * rules — a region such as `eu-west-1`, queue URLs, at least one feed, and the key's version
 * whenever a key will be stored (typed now, or stored and not cleared).
 */
export function sourceSchema(stored: StoredSecrets) {
  return z
    .object({
      name: text(limits('name')),
      region: text(limits('region'), { pattern: REGION, patternMessage: 'dataSources.regionFormat' }),
      feeds: z.object({
        transactions: text(feedLimits('transactions'), { pattern: QUEUE_URL, patternMessage: 'dataSources.queueUrl' }),
        events: text(feedLimits('events'), { pattern: QUEUE_URL, patternMessage: 'dataSources.queueUrl' }),
        dex: text(feedLimits('dex'), { pattern: QUEUE_URL, patternMessage: 'dataSources.queueUrl' }),
      }),
      ...texts(limits, ['access_key_id', 'secret_access_key', 'encryption_key']),
      encryption_key_version: wholeNumber(limits('encryption_key_version')),
      inactive: z.boolean(),
      clear_secret_access_key: z.boolean(),
      clear_encryption_key: z.boolean(),
    })
    .check(
      z.superRefine((values, ctx) => {
        if (FEEDS.every((feed) => values.feeds[feed].trim() === '')) addProblem(ctx, ['feeds'], 'dataSources.oneFeed');
        const keyStays = values.encryption_key.trim() !== '' || (stored.encryption_key && !values.clear_encryption_key);
        if (keyStays && values.encryption_key_version.trim() === '') addProblem(ctx, ['encryption_key_version'], 'dataSources.keyVersionRequired');
      }),
    );
}

export function emptySourceValues(): SourceValues {
  return {
    name: '',
    region: '',
    feeds: { transactions: '', events: '', dex: '' },
    access_key_id: '',
    secret_access_key: '',
    encryption_key: '',
    encryption_key_version: '',
    inactive: false,
    clear_secret_access_key: false,
    clear_encryption_key: false,
  };
}

/** A source's values as the form holds them; its secrets are never sent back, so never prefilled. */
export function valuesFromSource(source: DataSource): SourceValues {
  return {
    ...emptySourceValues(),
    name: source.name,
    region: source.region,
    feeds: { transactions: source.feeds.transactions ?? '', events: source.feeds.events ?? '', dex: source.feeds.dex ?? '' },
    access_key_id: source.access_key_id,
    encryption_key_version: source.encryption_key_version == null ? '' : String(source.encryption_key_version),
    inactive: source.inactive,
  };
}

/** What to send of a secret: what was typed, "" to clear the stored one, nothing to keep it. */
export function secretToSend(typed: string, clear: boolean): string | undefined {
  if (clear) return '';
  const value = typed.trim();
  return value ? value : undefined;
}

/**
 * The body for POST (create) or PUT (update, with the version read). The secrets are sent only
 * when typed (or as "" when cleared); the key's version only with a key that stays.
 */
export function toDataSourceForm(values: SourceValues, version?: number): DataSourceForm {
  const feed = (name: NayaxFeed) => values.feeds[name].trim() || null;
  const form: DataSourceForm = {
    name: values.name.trim(),
    kind: NAYAX_SQS,
    region: values.region.trim(),
    feeds: { transactions: feed('transactions'), events: feed('events'), dex: feed('dex') },
    access_key_id: values.access_key_id.trim(),
    inactive: values.inactive,
  };
  const secret = secretToSend(values.secret_access_key, values.clear_secret_access_key);
  if (secret !== undefined) form.secret_access_key = secret;
  const key = secretToSend(values.encryption_key, values.clear_encryption_key);
  if (key !== undefined) form.encryption_key = key;
  const keyVersion = values.encryption_key_version.trim();
  if (key !== '' && keyVersion) form.encryption_key_version = Number(keyVersion);
  return withVersion(form, version);
}

/** The feeds a source reads (those with a queue). */
export function feedsOf(source: DataSource): NayaxFeed[] {
  return FEEDS.filter((feed) => Boolean(source.feeds[feed]?.trim()));
}

/**
 * A source's health in one word: `inactive` (not read), `failing` (its last error is newer than
 * its last message), `waiting` (no message yet), `attention` (failures today, or messages kept
 * unbooked), `receiving` (all well).
 */
export type HealthState = 'inactive' | 'failing' | 'waiting' | 'attention' | 'receiving';

export const HEALTH_COLOR = { inactive: 'default', failing: 'error', waiting: 'info', attention: 'warning', receiving: 'success' } as const;

const time = (value: string | null | undefined) => (value ? new Date(value).getTime() : Number.NaN);

export function healthState(source: DataSource): HealthState {
  if (source.inactive) return 'inactive';
  const health = source.health;
  const lastMessage = time(health.last_message_at);
  const lastError = time(health.last_error_at);
  if (health.last_error && (Number.isNaN(lastMessage) || lastError >= lastMessage)) return 'failing';
  if (Number.isNaN(lastMessage)) return 'waiting';
  if (health.failed_today > 0 || health.oldest_unbooked) return 'attention';
  return 'receiving';
}

/** A group's row id: its latest message is its sample, and a message is in one group only. */
export function inboxRowId(group: InboxGroup): string {
  return group.sample_message_id;
}

/** A sample's body laid out for reading when it is JSON; as it came otherwise. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
