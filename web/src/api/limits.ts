// The limits the server declares for its request bodies, read from the OpenAPI document the server
// generates (`web/openapi.json`), so the forms refuse what the server would refuse, with the same
// numbers. A schema or field name that is not in the document does not compile (the names come
// from the generated `schema.d.ts`), and throws at run time if the two ever disagree.
import document from '../../openapi.json';
import type { components } from './schema';

type Schemas = components['schemas'];

/** A request (or other) schema of the document, e.g. `UserForm`. */
export type SchemaName = keyof Schemas;

/** A property of that schema, e.g. `name`. */
export type FieldName<S extends SchemaName> = Extract<keyof Schemas[S], string>;

/** The JSON Schema keywords that limit a field's value. */
interface Keywords {
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
}

/** What the document says about one field. */
export interface FieldLimits extends Keywords {
  /** Listed in the schema's `required`. */
  required: boolean;
}

/** The parts of the document read here (Vite ships only these; see `vite.config.ts`). */
interface OpenApiProperty extends Keywords {
  oneOf?: OpenApiProperty[];
  anyOf?: OpenApiProperty[];
  allOf?: OpenApiProperty[];
}

interface OpenApiSchema {
  required?: string[];
  properties?: Record<string, OpenApiProperty>;
}

const schemas = (document as unknown as { components: { schemas: Record<string, OpenApiSchema> } }).components.schemas;

const KEYWORDS = ['maxLength', 'minLength', 'minimum', 'maximum', 'pattern', 'maxItems', 'minItems'] as const satisfies readonly (keyof Keywords)[];

/** A property's own keywords and those of its variants (`oneOf: [null, {maxLength}]`). */
function collect(property: OpenApiProperty, into: Keywords): void {
  for (const keyword of KEYWORDS) {
    const value = property[keyword];
    if (value !== undefined && into[keyword] === undefined) (into as Record<string, unknown>)[keyword] = value;
  }
  for (const variant of [...(property.oneOf ?? []), ...(property.anyOf ?? []), ...(property.allOf ?? [])]) collect(variant, into);
}

/** The document's limits for `schema.field`; throws when the document has no such field. */
export function fieldLimits<S extends SchemaName>(schema: S, field: FieldName<S>): FieldLimits {
  const found = schemas[schema];
  const property = found?.properties?.[field];
  if (!found || !property) throw new Error(`openapi.json has no ${String(schema)}.${field}`);
  const limits: FieldLimits = { required: (found.required ?? []).includes(field) };
  collect(property, limits);
  return limits;
}

/** `limitsOf('UserForm')('name')`: the limits of one schema's fields. */
export function limitsOf<S extends SchemaName>(schema: S): (field: FieldName<S>) => FieldLimits {
  return (field) => fieldLimits(schema, field);
}
