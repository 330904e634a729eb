-- Sign-in through an OpenID Connect provider links an account by the provider's issuer and subject (the ID token's
-- iss and sub: unique and stable), never by preferred_username (the user may change it). An account is bound to at
-- most one such identity, and an identity to at most one account.
alter table app_user add column oidc_issuer text;
alter table app_user add column oidc_subject text;
alter table app_user add constraint app_user_oidc_both check ((oidc_issuer is null) = (oidc_subject is null));
alter table app_user add constraint app_user_oidc_identity unique (oidc_issuer, oidc_subject);

-- The last sign-out of each provider identity: an ID token issued before it opens no session (a copy of the session
-- cookie taken before sign-out is refused, in any browser).
create table oidc_sign_out (
    issuer        text        not null,
    subject       text        not null,
    signed_out_at timestamptz not null,
    primary key (issuer, subject)
);
