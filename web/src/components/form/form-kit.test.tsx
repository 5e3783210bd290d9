import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import openapi from '../../../openapi.json?raw';
import { ApiError } from '../../api/client';
import { fieldLimits } from '../../api/limits';
import i18next from '../../locales/i18n';
import { Form, FormAlerts, TextInput, useFieldMessage } from './form';
import { problemText } from './problem';
import { email, password, problemsOf, text } from './rules';
import { formPath, useServerForm } from './use-server-form';

const schemas = JSON.parse(openapi).components.schemas;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('rules from the OpenAPI document', () => {
  it('refuse a value longer than the declared maxLength and accept one of exactly that length', () => {
    const max: number = schemas.UserForm.properties.name.maxLength;
    const schema = z.object({ name: text(fieldLimits('UserForm', 'name')) });
    expect(problemsOf(schema, { name: 'x'.repeat(max + 1) }).name).toEqual({ key: 'validation.maxLength', values: { count: max } });
    expect(problemsOf(schema, { name: 'x'.repeat(max) })).toEqual({});
    expect(problemsOf(schema, { name: '  ' }).name?.key).toBe('validation.required');
  });

  it('take required, minLength and optional fields from the document', () => {
    const min: number = schemas.RegisterRequest.properties.password.minLength;
    const schema = z.object({
      password: password(fieldLimits('RegisterRequest', 'password')),
      email: email(fieldLimits('ClientForm', 'email')),
    });
    expect(problemsOf(schema, { password: 'x'.repeat(min - 1), email: '' })).toEqual({
      password: { key: 'validation.passwordMin', values: { count: min } },
    });
    expect(problemsOf(schema, { password: '', email: 'nope' })).toEqual({
      password: { key: 'validation.required' },
      email: { key: 'validation.email' },
    });
  });

  it('translate their messages where they are shown', async () => {
    const schema = z.object({ name: text(fieldLimits('RoleForm', 'name')) });
    const max: number = schemas.RoleForm.properties.name.maxLength;
    const [issue] = schema.safeParse({ name: 'x'.repeat(max + 1) }).error?.issues ?? [];
    await i18next.changeLanguage('it');
    expect(problemText(issue.message, i18next.t)).toBe(`Al massimo ${max} caratteri`);
    expect(problemText('Plain server text', i18next.t)).toBe('Plain server text');
  });
});

describe('server replies on the form', () => {
  it('names the server fields as the form does', () => {
    expect(formPath('recipe[1].quantity')).toBe('recipe.1.quantity');
    expect(formPath('commission_bps', { commission_bps: 'commission' })).toBe('commission');
  });

  const schema = z.object({ name: z.string(), device: z.object({ serial: z.string() }) });

  function Probe({ reply }: { reply: () => unknown }) {
    const form = useServerForm({ schema, defaultValues: { name: '', device: { serial: '' } }, versioned: true });
    const submit = form.submitWith(async () => {
      throw reply();
    });
    return (
      <Form form={form} onSubmit={submit}>
        <FormAlerts stale={form.stale} testId="form-message" />
        <TextInput name="name" label="Name" />
        <TextInput name="device.serial" label="Serial" />
        <GroupMessage />
        <button type="submit">Save</button>
      </Form>
    );
  }

  function GroupMessage() {
    return <p data-testid="device-message">{useFieldMessage('device') ?? ''}</p>;
  }

  const save = async () => act(async () => fireEvent.click(screen.getByText('Save')));

  it('puts field errors on their fields, the rest in the form message', async () => {
    render(<Probe reply={() => new ApiError(400, 'Invalid', { name: ['Taken'], device: ['Unknown device'], other: ['Not a field here'] })} />);
    await save();
    expect(screen.getByText('Taken')).toBeTruthy();
    expect(screen.getByTestId('device-message').textContent).toBe('Unknown device');
    expect(screen.getByTestId('form-message').textContent).toBe('Not a field here');
    // A message on a group clears when a field inside it changes.
    fireEvent.change(document.querySelector('input[name="device.serial"]')!, { target: { value: 'S-1' } });
    await waitFor(() => expect(screen.getByTestId('device-message').textContent).toBe(''));
  });

  it('shows a failure without field errors as the form message, translated when it is ours', async () => {
    render(<Probe reply={() => new TypeError('network')} />);
    await i18next.changeLanguage('fr');
    await save();
    expect(screen.getByTestId('form-message').textContent).toBe(i18next.t('errors.generic'));
  });

  it('tells a stale version apart from other conflicts', async () => {
    render(<Probe reply={() => new ApiError(409, 'Version conflict')} />);
    await save();
    expect(screen.getByText('Someone else changed this record. Reload it and apply your changes again.')).toBeTruthy();
    expect(screen.queryByTestId('form-message')).toBeNull();
  });
});
