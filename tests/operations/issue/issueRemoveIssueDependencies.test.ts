import { removeLinkTests } from '../../helpers/issueLinkTests.js';

removeLinkTests('dependencies', 'issueRemoveIssueDependencies');
