import { ApiError, isApiError } from '../../api/client';
import { PARAM_NAMES } from './definition-logic';

/**
 * The server's field errors of a definition, grouped where the form shows them: every filter's
 * (`params.machines`, `date_from`) under `params`, each column's (`columns[2]`) under `columns`.
 * The filter bar has no field per filter, so they are listed under it together.
 */
export function groupDefinitionErrors(error: unknown): unknown {
  if (!isApiError(error) || !error.errors) return error;
  const errors: Record<string, string[]> = {};
  const add = (field: string, messages: string[]) => {
    errors[field] = [...(errors[field] ?? []), ...messages];
  };
  for (const [field, messages] of Object.entries(error.errors)) {
    const list = Array.isArray(messages) ? messages.map(String) : [];
    if (field === 'params' || field.startsWith('params.') || field.startsWith('params[') || PARAM_NAMES.includes(field)) add('params', list);
    else if (field.startsWith('columns.') || field.startsWith('columns[')) add('columns', list);
    else add(field, list);
  }
  // All of a group's reasons in one message, so none is lost.
  for (const field of ['params', 'columns']) if (errors[field]) errors[field] = [errors[field].join(' ')];
  return new ApiError(error.status, error.message, errors, error.body);
}

/** Runs a request, handing its failure to the form with the definition's errors grouped. */
export async function withGroupedErrors<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw groupDefinitionErrors(error);
  }
}
