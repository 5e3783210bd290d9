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
export type ChangePasswordRequest = Schemas['ChangePasswordRequest'];
export type ChangePasswordReply = Schemas['MessageData_RefreshData'];
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
/** Today so far against the same hours of yesterday and of the same weekday a week before. */
export type DashboardToday = Schemas['TodayDto'];
/** The dashboard's trend charts: the last 30 days, and this month by day against the month before. */
export type DashboardTrend = Schemas['TrendDto'];
/** One day's sales figures. */
export type DayFigures = Schemas['DayFiguresDto'];
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

// --- Data sources ------------------------------------------------------------------------------

/** A telemetry provider's feeds (Nayax Core's SQS queues) with their health; its secrets only as whether they are set. */
export type DataSource = Schemas['DataSourceDto'];
/** `POST /api/settings/data-sources/` (and `PUT …/{id}/` with `version`): a secret left out stays as stored, `""` clears it. */
export type DataSourceForm = Schemas['DataSourceForm'];
export type DataSourceKind = Schemas['SourceKind'];
/** A source's queue URLs, one a feed; a feed without one is not read. */
export type DataSourceFeeds = Schemas['Feeds'];
/** Its last message and error, today's counts, its oldest message kept unbooked. */
export type DataSourceHealth = Schemas['DataSourceHealth'];
/** One of the feeds Nayax Core delivers (transactions, events, DEX audits). */
export type NayaxFeed = Schemas['NayaxFeed'];
/** Why a message is kept unbooked in the inbox. */
export type KeptReason = Schemas['KeptReason'];
/** Messages kept alike (reason, feed, Nayax machine id, product code), with the latest as a sample. */
export type InboxGroup = Schemas['InboxGroupDto'];
/** `POST …/inbox/retake/`: the messages of one Nayax machine id, or all (`{}`). */
export type RetakeForm = Schemas['RetakeForm'];
/** What became of the messages taken again. */
export type Retaken = Schemas['RetakenDto'];

// --- History import (docs/history-import.md) --------------------------------------------------

/** The columns a history mapping reads: each field's header in the file (`A|B`: either). */
export type HistoryMappingColumns = Schemas['HistoryColumns'];
/** `POST …/data-sources/mappings/` (and `PUT …/mappings/{id}/` with `version`). */
export type HistoryMappingBody = Schemas['HistoryMappingBody'];
/** A saved reading of a vendor's transactions file. */
export type HistoryMapping = Schemas['HistoryMappingDto'];
/** Where an import is: its file arriving, read (preview), booked, or failed. */
export type HistoryImportStatus = Schemas['HistoryImportStatus'];
/** A machine's sales of one month as the file has them. */
export type HistoryImportMonth = Schemas['HistoryPreviewMonth'];
/** Rows not booked: a machine or product Vendfleet does not know, or an audit machine. */
export type HistoryImportUnmatched = Schemas['HistoryUnmatched'];
/** A row in error: its line, the column, what is wrong. */
export type HistoryImportError = Schemas['HistoryRowError'];
/** What booking the file would do, nothing booked. */
export type HistoryImportPreview = Schemas['HistoryPreview'];
/** What booking did. */
export type HistoryImportResult = Schemas['HistoryImportResult'];
/** An import of a sales history file. */
export type HistoryImport = Schemas['HistoryImportDto'];
/** `POST …/data-sources/imports/`. */
export type HistoryImportBody = Schemas['NewHistoryImportBody'];
/** `POST …/data-sources/imports/{id}/book/`. */
export type BookBody = Schemas['HistoryBookBody'];

// --- Route planning ---------------------------------------------------------------------------

/** Why a machine needs a visit: counts of selections, its cash, its last reading. */
export type PlanningSignals = Schemas['SignalsDto'];
/** A row of `GET /api/route-planning/`, ranked by need (`need`: `now`, `soon` or `later`). */
export type RankedMachine = Schemas['RankedMachineDto'];
export type MapPoint = Schemas['PointDto'];
/** A machine of `GET /api/route-planning/map/`. */
export type MapMachine = Schemas['MapMachineDto'];
/** Every machine of the scope and the depot. */
export type PlanningMap = Schemas['MapDto'];
/** A component of a composite product, in a picklist line or a total. */
export type ComponentNeed = Schemas['ComponentNeedDto'];
/** A selection of `GET /api/route-planning/machines/{id}/products/` (and a plan's picklist line). */
export type SelectionNeed = Schemas['SelectionPlanDto'];
/** `GET /api/route-planning/machines/{id}/machine-cash/`. */
export type MachineCash = Schemas['MachineCashDto'];
/** `POST /api/route-planning/generate-picklist/`. */
export type PicklistRequest = Schemas['PicklistBody'];
export type PlanStop = Schemas['PlanStopDto'];
export type PlanRoute = Schemas['PlanRouteDto'];
/** The plan: routes with their ordered stops, what could not be routed, and the picklist. */
export type Plan = Schemas['PlanDto'];
/** `POST /api/planned-routes/`: one route per employee, the machines in their stop order. */
export type SaveRoutesRequest = Schemas['SaveRoutesBody'];
/** `GET`/`PUT /api/route-planning/settings/`. */
export type PlanningSettings = Schemas['SettingsDto'];

// --- Planned routes ---------------------------------------------------------------------------

/** A planned route: one employee's stops on a visit day (`status`, `route_type` as in `route-logic.ts`). */
export type PlannedRoute = Schemas['PlannedRouteDto'];
/** `GET /api/planned-routes/{id}/machines/`: a stop with its visit once booked. */
export type RouteStop = Schemas['RouteMachineDto'];
export type StopVisit = Schemas['VisitDto'];
/** A line of a stop's picklist, with what the visit booked (and its money with `…/values/`). */
export type PicklistLine = Schemas['RouteLineDto'];
/** A stop's picklist (`…/machines/products/`, and the stops of `…/values/`). */
export type StopPicklist = Schemas['StopPicklistDto'];
/** `GET …/machines/products/values/`: the stops' picklists with their money, and the totals. */
export type RouteValues = Schemas['RouteValuesDto'];
/** `GET …/stocks/`: per product and per component, loaded, filled, removed and returned. */
export type RouteStocks = Schemas['StocksDto'];
export type StockLine = Schemas['StockRowDto'];
/** `GET …/accuracy/`: the forecast against what the refiller found. */
export type RouteAccuracy = Schemas['AccuracyDto'];
export type AccuracyLine = Schemas['AccuracyRowDto'];
export type RemovalReason = Schemas['RemovalReason'];
/** `POST /api/machines/fill-from-route/`: a stop's visit, booked in one step. */
export type FillFromRouteRequest = Schemas['FillFromRouteBody'];
/** Its reply's `data`: `replayed` when the same `request_id` had been booked before. */
export type BookedVisit = Schemas['BookedDto'];
/** Why a stop could not be serviced. */
export type NotServicedReason = Schemas['NotServiced'];
/** The van's loading list of a day or a route (issue 30). */
export type LoadingList = Schemas['LoadingListDto'];
export type LoadingProduct = Schemas['LoadProduct'];
export type LoadingStop = Schemas['LoadStop'];

// --- Report generator and query scheduler -----------------------------------------------------

/** A report the generator (and the scheduler) can produce: one of the report screens. */
export type ReportModule = Schemas['Module'];
export type ReportFormat = Schemas['FileFormat'];
/** A chart in the file; only the sales overview takes one other than `none`. */
export type ReportGraph = Schemas['Graph'];
export type ReportVisibility = Schemas['Visibility'];
export type ReportStatus = Schemas['ReportStatus'];
export type UserRef = Schemas['UserRefDto'];
/** A saved report definition. */
export type ReportTemplate = Schemas['TemplateDto'];
/** The query-string parameters of a module's report screen, as strings. */
export type ReportParams = ReportTemplate['params'];
/** What `POST templates/`, `PUT templates/{id}/` (with `version`), `POST generate/` and `POST preview/` take. */
export type ReportTemplateForm = Schemas['TemplateBody'];
/** `POST templates/{id}/copy/`: the copy's name (default: the original's). */
export type CopyTemplateForm = Schemas['CopyTemplateBody'];
/**
 * A generated report. `available` false: the file covers machines beyond the caller's current
 * access and its download is refused (`unavailable_reason` says why).
 */
export type Report = Schemas['ReportDto'];
/** `POST preview/`: the first rows, cells already formatted as text. */
export type ReportPreview = Schemas['PreviewDto'];
export type TaskStatus = Schemas['TaskStatus'];
/** A schedule's five cron fields, as typed. */
export type Cron = Schemas['CronDto'];
/** `POST /api/query-schedulers/` (and `PUT …/{id}/` with `version`). */
export type TaskForm = Schemas['TaskBody'];
/** A task's last run: its reports, one per distinct reach and language of its recipients. */
export type LastRun = Schemas['LastRunDto'];
/** `withheld`: the recipient may not receive the report (`error` says why). */
export type DeliveryStatus = Schemas['DeliveryStatusDto'];
/** What became of one recipient: the report and file sent (or withheld), and why not. */
export type Delivery = Schemas['DeliveryDto'];
/** A scheduled query. */
export type Task = Schemas['TaskDto'];
/** `GET next-runs/`: the next runs (UTC instants) and the schedule as EventBridge writes it. */
export type NextRuns = Schemas['NextRunsDto'];

/** One change of a product's default price. */
export type PriceChange = Schemas['ProductPriceChangeDto'];
/** A product with its price history. */
export type ProductDetail = Schemas['ProductDetailDto'];
/** A product tag (the machines area has a `TagDto` of its own, see `MachineTag`). */
export type ProductTag = Schemas['ProductTagDto'];
export type ProductTagForm = Schemas['ProductTagForm'];

// --- Card settlements ------------------------------------------------------------------------

export type Reconciliation = Schemas['Reconciliation'];
/** One machine-day: its card sales against what was settled. */
export type ReconRow = Schemas['ReconRow'];
export type Payout = Schemas['Payout'];
/** An imported settlement file, with the corrections it made or that were made to it. */
export type SettlementImport = Schemas['SettlementImport'];
/** A processor's mapping: which column of its files holds each field. */
export type Mapping = Schemas['MappingDto'];
export type MappingBody = Schemas['MappingBody'];
export type MappingColumns = Schemas['Columns'];
export type ImportBody = Schemas['ImportBody'];
export type ImportReply = Schemas['MessageData_ImportedDto'];

// --- Visit ledger -----------------------------------------------------------------------------

/** What the data shows behind a variance. */
export type ExplanationKind = Schemas['ExplanationKind'];
/** One explanation and the records (refill-log lines, audit reads, vend events) it cites. */
export type Explanation = Schemas['Explanation'];
/** `first`: nothing to compare with; `matched`: no variance; `explained` / `unexplained`: a variance with or without a record behind it. */
export type VisitStatus = Schemas['VisitStatus'];
/** One cash collection, tied to the one before it (`previous`). */
export type VisitLine = Schemas['VisitLine'];
/** A week's or a month's visits of an employee, a machine or all of them. */
export type TrendPoint = Schemas['TrendPoint'];
/** The visits of an employee, a machine (or all: empty id and name), summed. */
export type VisitSum = Schemas['VisitSum'];
/** The totals, by employee and by machine (most short first), and how the trends are cut. */
export type VisitSummary = Schemas['VisitSummary'];

// --- VAT report -------------------------------------------------------------------------------

export type VatReport = Schemas['VatReport'];
/** Gross, net and VAT of a set of sales, with how many were sold. */
export type VatFigures = Schemas['VatFigures'];
/** One rate's totals. */
export type VatRate = Schemas['VatRate'];
/** One group (client, location, month) at one rate. */
export type VatRow = Schemas['VatRow'];

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
