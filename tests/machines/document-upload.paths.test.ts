import model from './document-upload.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
