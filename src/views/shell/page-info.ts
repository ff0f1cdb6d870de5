import { useLocation, useMatches, type Params } from 'react-router-dom';
import { applicationDetailTitle, applicationListTitle, listReturnHref } from '../../domain/page-titles.ts';
import type { Crumb } from '../ui/breadcrumbs.tsx';
import { lastListAddress } from './list-return.ts';

interface PageInfo {
  /** The document title; the tenant's name when left out. */
  title?: (params: Params) => string;
  crumbs: (params: Params, search: URLSearchParams) => Crumb[];
}

/** Shell pages by route id (see app-routes.tsx): their breadcrumbs and titles (AM §2). */
const pages: Record<string, PageInfo> = {
  list: { title: () => applicationListTitle, crumbs: () => [{ label: 'Applications' }] },
  listAll: { title: () => applicationListTitle, crumbs: () => [{ label: 'Applications' }] },
  application: {
    title: (params) => applicationDetailTitle(params.id ?? ''),
    crumbs: (params, search) => [
      { label: 'Applications', to: listReturnHref(search.get('from'), lastListAddress()) },
      { label: applicationDetailTitle(params.id ?? '') },
    ],
  },
  admin: { crumbs: () => [{ label: 'Admin' }] },
  reports: { crumbs: () => [{ label: 'Reports' }] },
  users: { crumbs: () => [{ label: 'Users' }] },
  settings: { crumbs: () => [{ label: 'Settings' }] },
  verifications: { crumbs: () => [{ label: 'Verifications' }] },
  verificationDetails: {
    crumbs: (params) => [{ label: 'Verifications', to: '/verifications' }, { label: params.id ?? '' }],
  },
};

export interface CurrentPage {
  title: string | undefined;
  crumbs: Crumb[];
}

/** The breadcrumbs and title of the deepest matched shell page. */
export function useCurrentPage(): CurrentPage {
  const matches = useMatches();
  const { search } = useLocation();
  const match = matches.findLast((candidate) => candidate.id in pages);
  const info = match ? pages[match.id] : undefined;
  if (!match || !info) return { title: undefined, crumbs: [] };
  return {
    title: info.title?.(match.params),
    crumbs: info.crumbs(match.params, new URLSearchParams(search)),
  };
}
