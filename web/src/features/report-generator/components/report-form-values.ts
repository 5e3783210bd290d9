import * as z from 'zod/mini';
import type { $RefinementCtx, $ZodType } from 'zod/v4/core';
import { addProblem, text } from '../../../components/form/rules';
import { FORMATS, GRAPHS, VISIBILITIES } from '../api/types';
import { paramsProblem, type DefinitionValues, type ReportFormValues } from '../report-logic';

/** A definition's own checks (the generator's and the scheduler's): a module is chosen; the server checks the filters. */
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

/** The generator form's checks: a name and a module; the server checks the rest. */
export function reportSchema(): $ZodType<ReportFormValues, ReportFormValues> {
  const schema = z
    .object({ name: text({ required: true }), visibility: z.enum(VISIBILITIES), ...definitionShape })
    .check(z.superRefine((values, ctx) => checkDefinition(values as DefinitionValues, ctx as $RefinementCtx<unknown>)));
  // The module is one of the known ones whenever it is not '' (the select offers no other).
  return schema as unknown as $ZodType<ReportFormValues, ReportFormValues>;
}
