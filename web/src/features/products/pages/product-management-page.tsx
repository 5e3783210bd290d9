import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import AddIcon from '@mui/icons-material/Add';
import type { Component, Product, ProductTag } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { toast } from '../../../components/snackbar';
import { useSaveComponent, useSaveProductTag } from '../api/products';
import { NamedTable } from '../components/named-table';
import { ProductDialog } from '../components/product-dialog';
import { ProductsTable } from '../components/products-table';
import { RecipeDialog } from '../components/recipe-dialog';
import { SimpleDialog } from '../components/simple-dialog';

const TABS = ['products', 'components', 'composites', 'tags'] as const;
type TabName = (typeof TABS)[number];

const AREA: Record<TabName, string> = {
  products: 'settings.products',
  components: 'settings.components',
  composites: 'settings.composite_products',
  tags: 'settings.product_tags',
};

type Editing =
  | { kind: 'product' | 'composite'; item?: Product }
  | { kind: 'recipe'; item: Product }
  | { kind: 'component'; item?: Component }
  | { kind: 'tag'; item?: ProductTag };

/** /settings/product-management: products, components, composite products and tags, the tab in `?tab=`. */
export default function ProductManagementPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const [searchParams, setSearchParams] = useSearchParams();
  const [editing, setEditing] = useState<Editing | null>(null);
  const saveComponent = useSaveComponent();
  const saveTag = useSaveProductTag();
  const visible = TABS.filter((name) => can(`${AREA[name]}.list`));
  const requested = searchParams.get('tab') as TabName | null;
  const tab: TabName = requested && visible.includes(requested) ? requested : (visible[0] ?? 'products');

  const newLabel: Record<TabName, string> = {
    products: t('products.newProduct'),
    components: t('products.newComponent'),
    composites: t('products.newComposite'),
    tags: t('products.newTag'),
  };
  const newKind: Record<TabName, Editing['kind']> = { products: 'product', components: 'component', composites: 'composite', tags: 'tag' };
  const action = can(`${AREA[tab]}.new`) ? (
    <Button
      variant="contained"
      startIcon={<AddIcon />}
      onClick={() => setEditing({ kind: newKind[tab] } as Editing)}
      data-testid={`new-${tab}`}
    >
      {newLabel[tab]}
    </Button>
  ) : null;

  const close = () => setEditing(null);

  return (
    <>
      <ScreenHeader action={action} />
      <Box sx={{ mb: 3 }}>
        <Tabs value={tab} onChange={(_event, value: TabName) => setSearchParams(value === 'products' ? {} : { tab: value }, { replace: true })}>
          {visible.includes('products') ? <Tab value="products" label={t('products.tabProducts')} data-testid="tab-products" /> : null}
          {visible.includes('components') ? <Tab value="components" label={t('products.tabComponents')} data-testid="tab-components" /> : null}
          {visible.includes('composites') ? <Tab value="composites" label={t('products.tabComposites')} data-testid="tab-composites" /> : null}
          {visible.includes('tags') ? <Tab value="tags" label={t('products.tabTags')} data-testid="tab-tags" /> : null}
        </Tabs>
      </Box>
      {tab === 'products' ? <ProductsTable key="products" composite={false} onEdit={(item) => setEditing({ kind: 'product', item })} /> : null}
      {tab === 'composites' ? (
        <ProductsTable
          key="composites"
          composite
          onEdit={(item) => setEditing({ kind: 'composite', item })}
          onRecipe={(item) => setEditing({ kind: 'recipe', item })}
        />
      ) : null}
      {tab === 'components' ? <NamedTable<Component> kind="components" onEdit={(item) => setEditing({ kind: 'component', item })} /> : null}
      {tab === 'tags' ? <NamedTable<ProductTag> kind="tags" onEdit={(item) => setEditing({ kind: 'tag', item })} /> : null}

      {editing?.kind === 'product' || editing?.kind === 'composite' ? (
        <ProductDialog
          key={editing.item ? `${editing.item.id}:${editing.item.version}` : 'new'}
          product={editing.item}
          composite={editing.kind === 'composite'}
          onClose={close}
        />
      ) : null}
      {editing?.kind === 'recipe' ? <RecipeDialog product={editing.item} onClose={close} /> : null}
      {editing?.kind === 'component' ? (
        <SimpleDialog
          title={editing.item ? t('products.editComponent') : t('products.newComponent')}
          submitLabel={editing.item ? t('common.saveChanges') : t('products.newComponent')}
          initial={{ name: editing.item?.name ?? '', unit: editing.item?.unit ?? '', inactive: editing.item?.inactive ?? false }}
          withUnit
          versioned={Boolean(editing.item)}
          testId="component-dialog"
          onSave={async (values) => {
            const item = editing.item;
            try {
              await saveComponent.mutateAsync({ id: item?.id, form: { ...values, version: item?.version } });
              toast.success(item ? t('success.componentUpdated') : t('success.componentCreated'));
            } catch (error) {
              toast.error(item ? t('errors.componentUpdate') : t('errors.componentCreate'));
              throw error;
            }
          }}
          onClose={close}
        />
      ) : null}
      {editing?.kind === 'tag' ? (
        <SimpleDialog
          title={editing.item ? t('products.editTag') : t('products.newTag')}
          submitLabel={editing.item ? t('common.saveChanges') : t('products.newTag')}
          initial={{ name: editing.item?.name ?? '', unit: '', inactive: false }}
          withUnit={false}
          versioned={Boolean(editing.item)}
          testId="product-tag-dialog"
          onSave={async (values) => {
            const item = editing.item;
            try {
              await saveTag.mutateAsync({ id: item?.id, form: { name: values.name, version: item?.version } });
              toast.success(item ? t('success.tagUpdated') : t('success.tagCreated'));
            } catch (error) {
              toast.error(item ? t('errors.tagUpdate') : t('errors.tagCreate'));
              throw error;
            }
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
}
