export const dataSourceKeys = {
  all: ['data-sources'] as const,
  list: ['data-sources', 'list'] as const,
  inbox: ['data-sources', 'inbox'] as const,
};
