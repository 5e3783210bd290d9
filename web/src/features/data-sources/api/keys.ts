export const dataSourceKeys = {
  all: ['data-sources'] as const,
  list: ['data-sources', 'list'] as const,
  inbox: ['data-sources', 'inbox'] as const,
  /** The history imports (issue 49): the list, and each one with its preview under it. */
  imports: ['data-sources', 'imports'] as const,
  import: (id: string) => ['data-sources', 'imports', id] as const,
  /** The saved mappings the imports read files through. */
  mappings: ['data-sources', 'mappings'] as const,
};
