import model from './bulk-upload.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
