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
export type Machine = Schemas['MachineDto'];
export type MachineForm = Schemas['MachineForm'];
export type Peripherals = Schemas['PeripheralsDto'];
export type Device = Schemas['DeviceDto'];
export type MachineOverview = Schemas['OverviewDto'];
export type SalesSource = Schemas['SalesSourceDto'];
export type AuditRead = Schemas['AuditReadDto'];
export type AuditState = Schemas['AuditStateDto'];
export type AuditDelta = Schemas['AuditDeltaDto'];
export type AuditFinding = Schemas['AuditFindingDto'];
export type AuditUpload = Schemas['AuditUpload'];
/** What accepting a held audit read would book now. */
export type AuditPreview = Schemas['AuditPreviewDto'];
/** An event refused because the machine used its id before with other content. */
export type IntakeAnomaly = Schemas['IntakeAnomalyDto'];
export type SeenEvent = Schemas['SeenEventDto'];
export type Selection = Schemas['SelectionDto'];
export type SelectionForm = Schemas['SelectionForm'];
export type StockForm = Schemas['StockForm'];
export type SelectionsRequest = Schemas['SelectionsRequest'];
export type CopyProductsRequest = Schemas['CopyProductsRequest'];
/** The machines area's `TagDto` (the products area has a `TagDto` of its own, see `ProductTag`). */
export type MachineTag = Schemas['TagDto'];
export type ManageMachineTagsRequest = Schemas['ManageTagsRequest'];
export type Refill = Schemas['RefillDto'];
export type Product = Schemas['ProductDto'];
export type ProductForm = Schemas['ProductForm'];
export type RecipeLine = Schemas['RecipeLineDto'];
export type RecipeLineForm = Schemas['RecipeLineForm'];
export type Recipe = Schemas['RecipeDto'];
export type RecipeForm = Schemas['RecipeForm'];
export type Component = Schemas['ComponentDto'];
/** A background job (large exports). */
export type Job = Schemas['JobDto'];
export type JobStatus = Schemas['JobStatusDto'];
export type ComponentForm = Schemas['ComponentForm'];
/** A period preset of the reports with the dates it stands for today. */
export type PeriodPreset = Schemas['PeriodDto'];
/** Sales figures in minor units (quantities in units). */
export type SalesFigures = Schemas['SalesFiguresDto'];
export type SalesRow = Schemas['SalesRowDto'];
export type SalesTotalTable = Schemas['TotalTableDto'];
/** A column of a report's detail table. */
export type ReportColumn = Schemas['ColumnDto'];
export type SalesDetailRow = Schemas['DetailRowDto'];
export type SalesLineChart = Schemas['LineChartDto'];
export type SalesBar = Schemas['BarDto'];
/** A cash collection of the encashment report, with what was expected and the over or short. */
export type Encashment = Schemas['EncashmentDto'];
/** Overs and shorts of an employee, a machine or the whole period. */
export type OverShort = Schemas['OverShortDto'];
export type EncashmentTotals = Schemas['EncashmentTotalsDto'];
/** What a period's refills added and removed of one product. */
export type ProductRefills = Schemas['ProductRefillsDto'];
/** The inventory report's product tab: a product's stock in the chosen machines. */
export type ProductStock = Schemas['ProductStockDto'];
export type ComponentStock = Schemas['ComponentStockDto'];
/** One selection of a machine's stock (the inventory's machine detail). */
export type SelectionStock = Schemas['SelectionStockDto'];
/** One vend of the transaction log. */
export type Transaction = Schemas['TransactionDto'];
export type PaymentMethod = Schemas['PaymentMethod'];
/** Sales figures with the number of sales (the log's rows). */
export type TransactionFigures = Schemas['TransactionFiguresDto'];
export type TransactionTotals = Schemas['TransactionTotalsDto'];
/** The dashboard: a part is null when the user may not see the report behind it. */
export type Dashboard = Schemas['DashboardDto'];
export type DashboardSpan = Schemas['SpanFiguresDto'];
export type DashboardTop = Schemas['TopDto'];
export type AttentionMachine = Schemas['AttentionDto'];
export type AttentionFinding = Schemas['FindingDto'];
export type AttentionReason = AttentionFinding['reason'];
/**
 * The operator's settings: the calendar (read-only) and the policy on data leaving the system
 * (allowed mail domains, the shortest interval between a scheduled task's runs), with whether the
 * caller may change it (an administrator of users and roles who sees every machine).
 */
export type OperatorSettings = Schemas['OperatorSettingsDto'];
/** `PUT /api/settings/operator/`. */
export type OperatorPolicyForm = Schemas['OperatorPolicyBody'];

/**
 * One change of a product's default price. Written out because the OpenAPI document has a single
 * `PriceChangeDto` for the machines' selection prices and the products' prices (the machines' wins).
 */
export interface PriceChange {
  old_price_minor: number | null;
  new_price_minor: number;
  currency: string;
  changed_by: { id: string; name: string };
  changed_at: string;
}

/** A product with its price history. */
export type ProductDetail = Product & { price_history: PriceChange[] };

/**
 * A product tag. The server's OpenAPI document has one `TagDto` and one `TagForm` for both the
 * machines and the products areas (the machines' wins), so these two are written out here.
 */
export interface ProductTag {
  id: string;
  name: string;
  createdAt: string;
  updated_at: string;
  version: number;
}

export interface ProductTagForm {
  name: string;
  version?: number;
}

/** A language code as the server sends it (en, fr, it). */
export type LanguageCode = Schemas['SwitchLanguageRequest']['language'];

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
