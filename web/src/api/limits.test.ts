import { describe, expect, it } from 'vitest';
import raw from '../../openapi.json?raw';
import { fieldLimits } from './limits';

const document = JSON.parse(raw) as { components: { schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>> }> } };

describe('limits from the OpenAPI document', () => {
  it('reads maxLength and required as the document declares them', () => {
    const schema = document.components.schemas.UserForm;
    expect(fieldLimits('UserForm', 'name')).toMatchObject({ required: schema.required?.includes('name'), maxLength: schema.properties.name.maxLength });
    expect(fieldLimits('UserForm', 'phone').required).toBe(false);
  });

  it('reads numeric ranges, patterns and minimum lengths', () => {
    const location = document.components.schemas.LocationForm.properties.latitude;
    expect(fieldLimits('LocationForm', 'latitude')).toMatchObject({ minimum: location.minimum, maximum: location.maximum });
    expect(fieldLimits('MachineForm', 'currency').pattern).toBe(document.components.schemas.MachineForm.properties.currency.pattern);
    expect(fieldLimits('RegisterRequest', 'password').minLength).toBe(document.components.schemas.RegisterRequest.properties.password.minLength);
  });

  it('refuses a field the document does not have', () => {
    expect(() => fieldLimits('UserForm', 'nope' as 'name')).toThrow('UserForm.nope');
  });
});
