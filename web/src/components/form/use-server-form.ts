import { useEffect, useRef, useState } from 'react';
import { get, useForm, type DefaultValues, type FieldPath, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { $ZodType } from 'zod/v4/core';
import { isApiError } from '../../api/client';
import { problem } from './problem';

export interface ServerFormOptions<V extends FieldValues> {
  /** The form's own checks; its values are the form's values (no transforms). */
  schema: $ZodType<V, V>;
  defaultValues: DefaultValues<V>;
  /** Server field name → form path where they differ (`commission_bps` → `commission`). */
  aliases?: Record<string, string>;
  /** Editing a record read at a version: a 409 without field errors means it changed since. */
  versioned?: boolean;
}

export interface SubmitOptions {
  /** After the server's reply is on the form (e.g. the failure toast). */
  onError?: (error: unknown) => void;
  /** The text to show for a failure no field takes (default: the server's message). */
  message?: (error: unknown) => string | undefined;
}

export interface ServerForm<V extends FieldValues> extends UseFormReturn<V> {
  /** The last save was refused because the record changed since it was read. */
  stale: boolean;
  /**
   * The form's submit handler: checks the values, runs `save` with them, and when it throws puts
   * the server's reply on the form (see `applyServerError`). Success is `save` not throwing, i.e.
   * a 2xx status.
   */
  submitWith: (save: (values: V) => Promise<unknown>, options?: SubmitOptions) => (event?: React.BaseSyntheticEvent) => Promise<void>;
}

/** `recipe[1].quantity` (the server's) → `recipe.1.quantity` (react-hook-form's). */
export function formPath(field: string, aliases: Record<string, string> = {}): string {
  const aliased = aliases[field] ?? field;
  return aliased.replace(/\[(\d+)\]/g, '.$1');
}

/**
 * Puts a failed request on the form: each field message of a 400/409 on its field (the first
 * one focused); a stale version as `stale`; any other failure, or field messages no field of
 * the form takes, as the form's message (`errors.root.server`). Returns whether it was stale.
 */
export function applyServerError<V extends FieldValues>(
  form: Pick<UseFormReturn<V>, 'setError' | 'getValues'>,
  error: unknown,
  options: { aliases?: Record<string, string>; versioned?: boolean; message?: (error: unknown) => string | undefined } = {},
): { stale: boolean; fields: string[] } {
  const placed: string[] = [];
  const unplaced: string[] = [];
  if (isApiError(error)) {
    for (const [field, messages] of Object.entries(error.errors ?? {})) {
      const text = Array.isArray(messages) && messages.length > 0 ? String(messages[0]) : '';
      if (!text) continue;
      const path = formPath(field, options.aliases);
      if (get(form.getValues(), path) !== undefined) {
        form.setError(path as FieldPath<V>, { type: 'server', message: text }, { shouldFocus: placed.length === 0 });
        placed.push(path);
      } else {
        unplaced.push(text);
      }
    }
  }
  const stale = Boolean(options.versioned) && isApiError(error) && error.status === 409 && Object.keys(error.errors ?? {}).length === 0;
  if (!stale && (placed.length === 0 || unplaced.length > 0)) {
    const text = options.message?.(error) ?? unplaced[0] ?? (isApiError(error) && error.message ? error.message : problem('errors.generic'));
    form.setError('root.server' as FieldPath<V>, { type: 'server', message: text });
  }
  return { stale, fields: placed };
}

/**
 * react-hook-form with a zod schema, wired to the server's error replies: a form is its fields and
 * its schema. Messages set from the server clear when their field (or one inside it) changes.
 */
export function useServerForm<V extends FieldValues>({ schema, defaultValues, aliases, versioned }: ServerFormOptions<V>): ServerForm<V> {
  // The schema may change (e.g. once the known time zones load): the resolver reads the latest.
  const schemaRef = useRef(schema);
  useEffect(() => {
    schemaRef.current = schema;
  }, [schema]);
  const [resolver] = useState(() => {
    const latest: Resolver<V> = (values, context, options) => (zodResolver(schemaRef.current) as unknown as Resolver<V>)(values, context, options);
    return latest;
  });
  const form = useForm<V>({ defaultValues, resolver });
  const [stale, setStale] = useState(false);
  // Server messages on a group (`peripherals.coin_changer`) are not cleared by its fields' checks.
  const serverPaths = useRef<string[]>([]);
  const { subscribe, clearErrors } = form;

  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ name }) => {
          if (!name) return;
          const cleared = serverPaths.current.filter((path) => name.startsWith(`${path}.`));
          if (cleared.length === 0) return;
          serverPaths.current = serverPaths.current.filter((path) => !cleared.includes(path));
          clearErrors(cleared as FieldPath<V>[]);
        },
      }),
    [subscribe, clearErrors],
  );

  const submitWith: ServerForm<V>['submitWith'] = (save, options = {}) =>
    form.handleSubmit(async (values) => {
      setStale(false);
      try {
        await save(values);
      } catch (error) {
        const result = applyServerError(form, error, { aliases, versioned, message: options.message });
        serverPaths.current = result.fields;
        setStale(result.stale);
        options.onError?.(error);
      }
    });

  return { ...form, stale, submitWith };
}
