import { fileURLToPath } from 'node:url';

/** Where global-setup leaves the migrated, seeded database dump that every server test starts from. */
export const templateDumpPath = fileURLToPath(new URL('../../.data/test-template.tar.gz', import.meta.url));
