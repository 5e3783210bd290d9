import * as z from 'zod/mini';
import { limitsOf } from '../api/limits';
import { email, password, problemsOf, text } from '../components/form/rules';

const login = limitsOf('LoginRequest');
const register = limitsOf('RegisterRequest');

/** Sign-in: an e-mail address and a password, as `LoginRequest` declares them. */
export const loginSchema = z.object({
  email: email(login('email')),
  password: text(login('password')),
});

/** Registration: names, e-mail address and a password of the declared length. */
export const registerSchema = z.object({
  firstName: text(register('firstName')),
  lastName: text(register('lastName')),
  email: email(register('email')),
  password: password(register('password')),
});

export type LoginValues = z.infer<typeof loginSchema>;
export type RegisterValues = z.infer<typeof registerSchema>;

export function validateLogin(values: LoginValues) {
  return problemsOf(loginSchema, values);
}

export function validateRegister(values: RegisterValues) {
  return problemsOf(registerSchema, values);
}
