import FleetAuthServerStorage

extension TokenServerSchema {
    /// On PostgreSQL, the triggers that tell every replica when what a grant is read from
    /// changes (see ``FleetAuthServerStorage/ServerDatabase/first(_:)``): a `NOTIFY` from the changing
    /// transaction, delivered as it commits. A new session changes no grant read before (its
    /// token is new), so only its end notifies; accounts, identities and assignments notify on
    /// every change. Each statement is safe to run again.
    ///
    /// A trigger is made only where it is missing: making one locks its table against every
    /// other session, so a replica starting beside others under load (a rolling restart) would
    /// wait on their reads and could deadlock with their writes, failing its start or their
    /// requests.
    static let postgresChangeSignals: [String] =
        [
            """
            CREATE OR REPLACE FUNCTION token_server_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('\(PostgresChangeSignal.channel)', TG_TABLE_NAME);
                RETURN NULL;
            END
            $$
            """
        ]
        + [
            ("token_server_accounts", "INSERT OR UPDATE OR DELETE OR TRUNCATE"),
            ("token_server_identities", "INSERT OR UPDATE OR DELETE OR TRUNCATE"),
            ("token_server_assignments", "INSERT OR UPDATE OR DELETE OR TRUNCATE"),
            ("token_server_sessions", "UPDATE OR DELETE OR TRUNCATE"),
        ].flatMap { table, events in
            [
                """
                DO $$ BEGIN
                    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '\(table)_changed' AND tgrelid = '\(table)'::regclass) THEN
                        CREATE TRIGGER \(table)_changed AFTER \(events) ON \(table)
                            FOR EACH STATEMENT EXECUTE FUNCTION token_server_notify_change();
                    END IF;
                END $$
                """
            ]
        }
}
