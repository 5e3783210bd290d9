// API shapes. They come from the generated OpenAPI schema (`npm run gen:api`), so a server change
// that breaks the web shows up in `npm run typecheck`.
import type { components } from './schema';

type Schemas = components['schemas'];

export type ErrorBody = Schemas['ErrorBody'];
export type Pagination = Schemas['Pagination'];
export type Option = Schemas['OptionDto'];
export type Language = Schemas['LanguageDto'];
export type TokenPair = Schemas['TokenDto'];
export type Profile = Schemas['Profile'];
export type LoginRequest = Schemas['LoginRequest'];
export type LoginData = Schemas['LoginData'];
export type RegisterRequest = Schemas['RegisterRequest'];
export type RegisterResponse = Schemas['RegisterReply'];
export type User = Schemas['UserDto'];
export type UserForm = Schemas['UserForm'];
export type Role = Schemas['RoleDto'];
export type RoleForm = Schemas['RoleForm'];
export type PermissionNode = Schemas['CatalogueNodeDto'];
export type Client = Schemas['ClientDto'];
export type ClientForm = Schemas['ClientForm'];
export type Location = Schemas['LocationDto'];
export type LocationForm = Schemas['LocationForm'];
export type ChangeRefillerRequest = Schemas['ChangeRefillerRequest'];
export type MachineModel = Schemas['ModelDto'];
export type MachineModelForm = Schemas['ModelForm'];

/** A language code as the server sends it (en, fr, it). */
export type LanguageCode = Profile['language'];

/** A list reply: `{data, pagination}`. */
export interface ListReply<T> {
  data: T[];
  pagination: Pagination;
}

/** A reply carrying one item (get by id, create, update). */
export interface ItemReply<T> {
  message?: string;
  data: T;
}

export interface MessageReply {
  message: string;
}
