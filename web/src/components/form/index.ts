// The form kit: react-hook-form + zod with limits from the OpenAPI document, and the server's
// error replies put on the fields. A form is its schema (rules) and its fields.
export { Form, FormAlerts, TextInput, useFieldMessage } from './form';
export { FormFooter } from './form-footer';
export { FreeSoloInput, MultiOptionInput, OptionInput, SelectInput, SwitchInput } from './fields';
export { problem, problemText, readProblem } from './problem';
export * as rules from './rules';
export { problemsOf } from './rules';
export { applyServerError, formPath, useServerForm, type ServerForm } from './use-server-form';
