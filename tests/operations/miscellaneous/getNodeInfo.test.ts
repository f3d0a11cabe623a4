// GET /nodeinfo: no federation in anvil, so 404 to everyone, as Gitea with federation off.
import { federationOffTests } from '../../helpers/federation.js';

federationOffTests('getNodeInfo', 'GET', () => '/nodeinfo');
