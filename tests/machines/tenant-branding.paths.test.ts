import model from './tenant-branding.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
