import { collect, PASSWORD_MIN, rules, type FieldErrors } from '../components/validation';

export interface LoginValues {
  email: string;
  password: string;
}

export interface RegisterValues extends LoginValues {
  firstName: string;
  lastName: string;
}

export function validateLogin(values: LoginValues): FieldErrors<keyof LoginValues> {
  return collect({ email: rules.email(values.email), password: rules.required(values.password) });
}

export function validateRegister(values: RegisterValues): FieldErrors<keyof RegisterValues> {
  return collect({
    firstName: rules.required(values.firstName),
    lastName: rules.required(values.lastName),
    email: rules.email(values.email),
    password: rules.required(values.password) ?? rules.minLength(values.password, PASSWORD_MIN),
  });
}
