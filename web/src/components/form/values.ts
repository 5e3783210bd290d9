// The conversions the record forms share: a record read from the server → the form's values
// (texts, '' for none), and the form's values → the request body (texts trimmed, '' → null).

/** One value per field, in the fields' order. */
export function byField<K extends string, T>(fields: readonly K[], value: (field: K) => T): Record<K, T> {
  const out = {} as Record<K, T>;
  for (const field of fields) out[field] = value(field);
  return out;
}

/** Empty text fields (a new record). */
export function blankTexts<K extends string>(fields: readonly K[]): Record<K, string> {
  return byField(fields, () => '');
}

/** A record's text fields (and ids) as the form holds them: '' where the server sent none. */
export function textsOf<K extends string>(record: NoInfer<Partial<Record<K, string | null>>>, fields: readonly K[]): Record<K, string> {
  return byField(fields, (field) => record[field] ?? '');
}

/** Text fields as the request body takes them: trimmed. */
export function trimmedTexts<K extends string>(values: NoInfer<Record<K, string>>, fields: readonly K[]): Record<K, string> {
  return byField(fields, (field) => values[field].trim());
}

/** Links to other records as the request body takes them: an id, or null for none (''). */
export function idsOrNull<K extends string>(values: NoInfer<Record<K, string>>, fields: readonly K[]): Record<K, string | null> {
  return byField(fields, (field) => values[field] || null);
}

/** A request body; for an update (PUT), with the version of the record read. */
export function withVersion<F extends object>(form: F, version?: number): F & { version?: number } {
  return version === undefined ? form : { ...form, version };
}
