import * as z from 'zod/mini';
import type { $RefinementCtx, $ZodType } from 'zod/v4/core';
import { text } from '../../../components/form/rules';
import { VISIBILITIES, type DefinitionValues } from '../../../components/report-definition/definition-logic';
import { checkDefinition, definitionShape } from '../../../components/report-definition/definition-values';
import type { ReportFormValues } from '../report-logic';

/** The generator form's checks: a name and a module; the server checks the rest. */
export function reportSchema(): $ZodType<ReportFormValues, ReportFormValues> {
  const schema = z
    .object({ name: text({ required: true }), visibility: z.enum(VISIBILITIES), ...definitionShape })
    .check(z.superRefine((values, ctx) => checkDefinition(values as DefinitionValues, ctx as $RefinementCtx<unknown>)));
  // The module is one of the known ones whenever it is not '' (the select offers no other).
  return schema as unknown as $ZodType<ReportFormValues, ReportFormValues>;
}
