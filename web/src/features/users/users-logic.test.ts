import { describe, expect, it } from 'vitest';
import type { PermissionNode, User } from '../../api/types';
import { allLeafKeys, nodeState, selectionFromModules, setNode } from './components/permission-tree-logic';
import { selectedIds } from '../../components/grid';
import { emptyUserValues, toUserForm, validateUser, valuesFromUser } from './components/user-form-values';

const catalogue: PermissionNode[] = [
  {
    key: 'settings',
    name: 'Settings',
    children: [
      {
        key: 'settings.users',
        name: 'Users',
        children: [
          { key: 'settings.users.list', name: 'List' },
          { key: 'settings.users.new', name: 'New' },
        ],
      },
      { key: 'settings.roles', name: 'Roles', children: [{ key: 'settings.roles.list', name: 'List' }] },
    ],
  },
];

describe('permission tree', () => {
  it('works on leaf keys with tri-state parents', () => {
    expect(allLeafKeys(catalogue)).toEqual(['settings.users.list', 'settings.users.new', 'settings.roles.list']);
    const some = new Set(['settings.users.list']);
    expect(nodeState(catalogue[0], some)).toBe('indeterminate');
    const users = catalogue[0].children![0];
    const all = setNode(users, some, true);
    expect(nodeState(users, all)).toBe('checked');
    expect(nodeState(catalogue[0], setNode(catalogue[0], all, false))).toBe('unchecked');
  });

  it('reads stored group keys as their leaves and keeps unknown keys', () => {
    expect([...selectionFromModules(['settings.users', 'legacy.key'], catalogue)].sort()).toEqual([
      'legacy.key',
      'settings.users.list',
      'settings.users.new',
    ]);
  });
});

describe('user form', () => {
  it('requires a password of 8+ characters on create only', () => {
    const values = { ...emptyUserValues(), name: 'Rita', email: 'rita@example.com' };
    expect(validateUser(values, true).password?.key).toBe('validation.required');
    expect(validateUser({ ...values, password: 'short' }, true).password?.key).toBe('validation.passwordMin');
    expect(validateUser(values, false)).toEqual({});
    expect(validateUser({ ...values, email: 'x' }, false).email?.key).toBe('validation.email');
  });

  it('builds the request body: no empty password, scopes only when limited, version on update', () => {
    const values = {
      ...emptyUserValues('it'),
      name: ' Rita ',
      email: 'rita@example.com',
      client_ids: ['c1'],
      access_all_machines: true,
    };
    const create = toUserForm(values);
    expect(create).toMatchObject({ name: 'Rita', role_id: null, language: 'it', client_ids: [] });
    expect('password' in create).toBe(false);
    const update = toUserForm({ ...values, access_all_machines: false, password: 'longenough' }, 7);
    expect(update).toMatchObject({ client_ids: ['c1'], password: 'longenough', version: 7 });
  });

  it('round-trips a user from the server', () => {
    const user = {
      id: 'u1', name: 'Rita', email: 'rita@example.com', phone: '', role_id: 'r1', role_name: 'Refillers',
      active: false, last_login: null, created_at: '', updated_at: '', language: 'fr', position: 'Refiller',
      access_all_modules: false, access_all_machines: false, client_ids: [], location_ids: ['l1'],
      machine_tag_ids: [], machine_ids: [], version: 3, can_manage: true,
    } as User;
    expect(valuesFromUser(user)).toMatchObject({ role_id: 'r1', active: false, location_ids: ['l1'], password: '' });
  });
});

describe('grid selection', () => {
  it('reads include and exclude models', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(selectedIds({ type: 'include', ids: new Set(['b']) }, rows)).toEqual(['b']);
    expect(selectedIds({ type: 'exclude', ids: new Set(['b']) }, rows)).toEqual(['a', 'c']);
  });
});
