import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import { lazyPage } from './lazyPage';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { PageSpinner } from '../shared/PageSpinner';
import { ErrorPresenterBridge } from './ErrorPresenterBridge';
import { SessionBridge } from './SessionBridge';
import { RouteTitle } from './RouteTitle';
import { RegionBridge } from './RegionBridge';

/** Every page is its own chunk (React.lazy); titles are `shell:title.<key>` keys. */
const pages = {
  home: lazyPage(() => import('../features/home/HomePage')),
  migration: lazyPage(() => import('../features/home/MigrationPage')),
  domain: lazyPage(() => import('../features/home/DomainPage')),
  notFound: lazyPage(() => import('../features/home/NotFoundPage')),
  login: lazyPage(() => import('../features/auth/LoginPage')),
  signUp: lazyPage(() => import('../features/auth/SignUpPage')),
  forgot: lazyPage(() => import('../features/auth/ForgotPasswordPage')),
  shell: lazyPage(() => import('./shell/PrivateShell')),
  myAnalyses: lazyPage(() => import('../features/analyses/MyAnalysesPage')),
  downloads: lazyPage(() => import('../features/downloads/RequestedDownloadsPage')),
  admin: lazyPage(() => import('../features/admin/AdminConsolePage')),
  notifications: lazyPage(() => import('../features/jobs/NotificationsPage')),
  account: lazyPage(() => import('../features/account/AccountSettingsPage')),
  importData: lazyPage(() => import('../features/files/ImportDataPage')),
  integrateLocal: lazyPage(() => import('../features/wizard/IntegrateLocalDataPage')),
  integratePublic: lazyPage(() => import('../features/wizard/IntegrateSynEcoSysDataPage')),
  integrateBoth: lazyPage(() => import('../features/wizard/IntegrateLocalAndSynEcoSysPage')),
  publicDatabase: lazyPage(() => import('../features/publicdb/PublicDatabasePage')),
  datasetAnalysis: lazyPage(() => import('../features/explore/DatasetAnalysisPage')),
  subDatasetAnalysis: lazyPage(() => import('../features/explore/SubCelltypeDatasetAnalysisPage')),
  guidebook: lazyPage(() => import('../features/resource/GuidebookPage')),
  documentation: lazyPage(() => import('../features/resource/DocumentationPage')),
  contact: lazyPage(() => import('../features/resource/ContactPage')),
  faq: lazyPage(() => import('../features/resource/FaqPage')),
  videos: lazyPage(() => import('../features/resource/TutorialVideosPage')),
  app1: lazyPage(() => import('../features/tools/App1Page')),
};

function page(Page: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  );
}

function Root() {
  const location = useLocation();
  return (
    <>
      <ErrorPresenterBridge />
      <SessionBridge />
      <RegionBridge />
      <RouteTitle />
      <RouteErrorBoundary resetKey={location.pathname}>
        <Outlet />
      </RouteErrorBoundary>
    </>
  );
}

type Title = { title: string };
const r = (path: string, Page: LazyExoticComponent<ComponentType>, title: string) => ({
  path,
  element: page(Page),
  handle: { title } satisfies Title,
});

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      r('/', pages.home, 'home'),
      r('/migration', pages.migration, 'migration'),
      r('/domain', pages.domain, 'domain'),
      r('/login', pages.login, 'login'),
      r('/signup', pages.signUp, 'signUp'),
      r('/forgot-password', pages.forgot, 'forgotPassword'),
      r('/404', pages.notFound, 'notFound'),
      {
        element: page(pages.shell),
        children: [
          r('/my_analyzes', pages.myAnalyses, 'myAnalyses'),
          r('/requestedDownloads', pages.downloads, 'requestedDownloads'),
          r('/admin', pages.admin, 'admin'),
          r('/admin/:tab', pages.admin, 'admin'),
          r('/notifications', pages.notifications, 'notifications'),
          r('/accountsettings', pages.account, 'accountSettings'),
          r('/importdata', pages.importData, 'importData'),
          r('/integrateLocalData', pages.integrateLocal, 'integrateLocalData'),
          r('/integrateSynEcoSysData', pages.integratePublic, 'integrateSynEcoSysData'),
          r('/integrateLocalAndSynEcoSys', pages.integrateBoth, 'integrateLocalAndSynEcoSys'),
          r('/publicDatabase', pages.publicDatabase, 'publicDatabase'),
          r('/userDatasetAnalysis', pages.datasetAnalysis, 'userDatasetAnalysis'),
          r('/userSubCelltypeDatasetAnalysis', pages.subDatasetAnalysis, 'userSubCelltypeDatasetAnalysis'),
          r('/guidebook', pages.guidebook, 'guidebook'),
          r('/documentation', pages.documentation, 'documentation'),
          r('/contact', pages.contact, 'contact'),
          r('/faq', pages.faq, 'faq'),
          r('/tutorialVideos', pages.videos, 'tutorialVideos'),
          r('/app1/*', pages.app1, 'app1'),
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);

export type RouteHandle = Title;
