import type { LanguageCode, User, UserForm } from '../../../api/types';
import { collect, PASSWORD_MIN, rules, type FieldErrors } from '../../../components/validation';

export interface UserFormValues {
  name: string;
  email: string;
  phone: string;
  password: string;
  /** '' = no role. */
  role_id: string;
  active: boolean;
  language: LanguageCode;
  position: string;
  access_all_modules: boolean;
  access_all_machines: boolean;
  client_ids: string[];
  location_ids: string[];
  machine_tag_ids: string[];
  machine_ids: string[];
}

export type UserField = keyof UserFormValues;

export function emptyUserValues(language: LanguageCode = 'en'): UserFormValues {
  return {
    name: '',
    email: '',
    phone: '',
    password: '',
    role_id: '',
    active: true,
    language,
    position: '',
    access_all_modules: false,
    access_all_machines: true,
    client_ids: [],
    location_ids: [],
    machine_tag_ids: [],
    machine_ids: [],
  };
}

export function valuesFromUser(user: User): UserFormValues {
  return {
    name: user.name ?? '',
    email: user.email ?? '',
    phone: user.phone ?? '',
    password: '',
    role_id: user.role_id ?? '',
    active: user.active,
    language: user.language ?? 'en',
    position: user.position ?? '',
    access_all_modules: user.access_all_modules,
    access_all_machines: user.access_all_machines,
    client_ids: user.client_ids ?? [],
    location_ids: user.location_ids ?? [],
    machine_tag_ids: user.machine_tag_ids ?? [],
    machine_ids: user.machine_ids ?? [],
  };
}

/** The body for POST (create) or PUT (update, with the version read). */
export function toUserForm(values: UserFormValues, version?: number): UserForm {
  const scoped = !values.access_all_machines;
  const form: UserForm = {
    name: values.name.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    role_id: values.role_id || null,
    active: values.active,
    language: values.language,
    position: values.position.trim(),
    access_all_modules: values.access_all_modules,
    access_all_machines: values.access_all_machines,
    client_ids: scoped ? values.client_ids : [],
    location_ids: scoped ? values.location_ids : [],
    machine_tag_ids: scoped ? values.machine_tag_ids : [],
    machine_ids: scoped ? values.machine_ids : [],
  };
  if (values.password) form.password = values.password;
  if (version !== undefined) form.version = version;
  return form;
}

/** Password: required (min 8) when creating, optional (min 8 when given) when editing. */
export function validateUser(values: UserFormValues, creating: boolean): FieldErrors<UserField> {
  const password = values.password
    ? rules.minLength(values.password, PASSWORD_MIN)
    : creating
      ? rules.required(values.password)
      : undefined;
  return collect<UserField>({
    name: rules.required(values.name) ?? rules.maxLength(values.name, 120),
    email: rules.email(values.email),
    phone: rules.maxLength(values.phone, 40),
    password,
    role_id: undefined,
    active: undefined,
    language: undefined,
    position: rules.maxLength(values.position, 80),
    access_all_modules: undefined,
    access_all_machines: undefined,
    client_ids: undefined,
    location_ids: undefined,
    machine_tag_ids: undefined,
    machine_ids: undefined,
  });
}
