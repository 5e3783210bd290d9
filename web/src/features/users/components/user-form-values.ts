import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { LanguageCode, User, UserForm } from '../../../api/types';
import { email, password, phone, problemsOf, text } from '../../../components/form/rules';

const limits = limitsOf('UserForm');

/** The phone's longest value: the document declares none. */
const PHONE_MAX = 40;

/** The user form's checks. The password is required (8+) on create, optional (8+ when given) on edit. */
export function userSchema(creating: boolean) {
  return z.object({
    name: text(limits('name')),
    email: email(limits('email')),
    phone: phone(limits('phone'), { maxLength: PHONE_MAX }),
    password: password(limits('password'), { required: creating }),
    /** '' = no role. */
    role_id: z.string(),
    active: z.boolean(),
    language: z.enum(['en', 'fr', 'it']) as z.ZodMiniType<LanguageCode, LanguageCode>,
    position: text(limits('position')),
    access_all_modules: z.boolean(),
    access_all_machines: z.boolean(),
    client_ids: z.array(z.string()),
    location_ids: z.array(z.string()),
    machine_tag_ids: z.array(z.string()),
    machine_ids: z.array(z.string()),
  });
}

export type UserFormValues = z.infer<ReturnType<typeof userSchema>>;

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

export function validateUser(values: UserFormValues, creating: boolean) {
  return problemsOf(userSchema(creating), values);
}
