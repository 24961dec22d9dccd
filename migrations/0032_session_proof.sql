-- How each session's wallet proved itself at sign-in (docs/sign-in.md#contract-wallets): 'key', a signature that
-- recovered to the wallet in the Worker; 'contract', the nodes' word (ERC-1271/6492 by quorum), which never makes an
-- admin unless ADMIN_CONTRACT_WALLETS names the wallet. Sessions opened before this migration cannot say which they
-- were, so they take the weaker one: an admin signed in through a contract check before it signs in again.
ALTER TABLE `sessions` ADD `proof` text DEFAULT 'contract' NOT NULL CONSTRAINT `sessions_proof` CHECK(`proof` IN ('key', 'contract'));
