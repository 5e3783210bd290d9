import type { ComponentProps } from 'react';
import { FilterSelect } from '../fields';
import type { ListState } from './use-list-state';

type ListFilterProps<F extends string> = Omit<ComponentProps<typeof FilterSelect>, 'value' | 'onChange'> & {
  list: ListState<F>;
  /** The list's filter it sets. */
  filter: F;
  /** What it shows when that is not the filter's raw value (a default read from it). */
  value?: string;
};

/** A list toolbar's filter select over one of the list's filters: kept in the URL, a change goes back to page 1. */
export function ListFilter<F extends string>({ list, filter, value, ...select }: ListFilterProps<F>) {
  return <FilterSelect {...select} value={value ?? list.filters[filter]} onChange={(next) => list.setFilter(filter, next)} />;
}
