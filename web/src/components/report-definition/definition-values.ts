// A definition's own checks in a form (the generator's and the scheduler's).
import * as z from 'zod/mini';
import type { $RefinementCtx } from 'zod/v4/core';
import { addProblem, text } from '../form/rules';
import { FORMATS, GRAPHS, paramsProblem, type DefinitionValues } from './definition-logic';

/** A definition's fields: a module is chosen; the server checks the filters. */
export const definitionShape = {
  module: text({ required: true }),
  params: z.record(z.string(), z.string()),
  format: z.enum(FORMATS),
  graph: z.enum(GRAPHS),
  columns: z.array(z.string()),
};

/** A custom period needs both its days, in order (as on the report screens). */
export function checkDefinition(values: DefinitionValues, ctx: $RefinementCtx<unknown>): void {
  const problem = values.module ? paramsProblem(values.module, values.params) : null;
  if (problem) addProblem(ctx, ['params'], `reports.${problem}`);
}
