// Every address of spec section 2 in one place.
export const paths = {
  root: '/',
  notFound: '/404',
  auth: {
    login: '/auth/jwt/login',
    register: '/auth/jwt/register',
  },
  dashboard: {
    root: '/dashboard',
  },
  /** The signed-in user's own page: password, language, role and machine access. */
  account: '/account',
  report: {
    root: '/report',
    salesOverview: '/report/sales-overview',
    encashment: '/report/encashment',
    refillLog: '/report/refill-log',
    reportGenerator: '/report/report-generator',
    createReport: '/report/create-report',
    editTemplate: (id: string) => `/report/create-report/${encodeURIComponent(id)}`,
    inventoryReport: '/report/inventory-report',
    transactionLog: '/report/transaction-log',
    cardSettlements: '/report/card-settlements',
    vat: '/report/vat',
    visitLedger: '/report/visit-ledger',
  },
  planning: {
    routePlanning: '/planning/route-planning',
    plannedRoutes: '/planning/planned-routes',
    plannedRoute: (id: string) => `/planning/planned-routes/${encodeURIComponent(id)}`,
  },
  /** The refiller's phone app (issue 30): my routes, their stops, the outbox, the van's loading. */
  myDay: {
    root: '/my-day',
    route: (id: string) => `/my-day/routes/${encodeURIComponent(id)}`,
    stop: (id: string, machineId: string) => `/my-day/routes/${encodeURIComponent(id)}/stops/${encodeURIComponent(machineId)}`,
    queue: '/my-day/queue',
    loading: '/my-day/loading',
  },
  settings: {
    userManagement: '/settings/user-management',
    createUser: '/settings/create-user',
    editUser: (id: string) => `/settings/create-user/${encodeURIComponent(id)}`,
    createRole: '/settings/create-role',
    editRole: (id: string) => `/settings/create-role/${encodeURIComponent(id)}`,
    clientManagement: '/settings/client-management',
    locationManagement: '/settings/location-management',
    createLocation: '/settings/create-location',
    editLocation: (id: string) => `/settings/create-location/${encodeURIComponent(id)}`,
    queryScheduler: '/settings/query-scheduler',
    createQuery: (module: string) => `/settings/create-query/${encodeURIComponent(module)}`,
    editQuery: (module: string, id: string) => `/settings/create-query/${encodeURIComponent(module)}/${encodeURIComponent(id)}`,
    modelManagement: '/settings/model-management',
    createModel: '/settings/create-model',
    editModel: (id: string) => `/settings/create-model/${encodeURIComponent(id)}`,
    machineManagement: '/settings/machine-management',
    createMachine: '/settings/create-machine',
    machine: (id: string, tab: 'overview' | 'products' | 'settings' | 'refills' | 'audits' | 'anomalies' = 'overview') =>
      `/settings/machine-management/${encodeURIComponent(id)}/${tab}`,
    productManagement: '/settings/product-management',
    dataPolicy: '/settings/data-policy',
    auditTrail: '/settings/audit-trail',
    /** Telemetry providers' feeds (Nayax Core) with their health, and the inbox of messages kept unbooked. */
    dataSources: '/settings/data-sources',
    /** A sales history brought from export files (Nayax Core's, or any vendor's through a saved mapping), issue 49. */
    historyImport: '/settings/data-sources/import',
  },
} as const;
