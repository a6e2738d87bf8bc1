-- Insertion order of notifications (timestamps can tie on the embedded database's clock).
ALTER TABLE notifications ADD COLUMN seq bigserial;
CREATE INDEX notifications_user_seq ON notifications (user_id, seq DESC);
