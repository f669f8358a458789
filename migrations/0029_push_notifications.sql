-- Hand-written (docs/notifications.md): push reminders. The server's VAPID key pair (one row, made at
-- first start), the browsers' push subscriptions, each person's switches per event and channel, and
-- the check-in reminders already queued (so one goes out once per reservation, whichever process).
CREATE TABLE "push_vapid_keys" (
  "id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
  "public_key" text NOT NULL,
  "private_key" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "push_vapid_keys_one_row_check" CHECK ("id" = 1)
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "endpoint" text NOT NULL,
  "p256dh" text NOT NULL,
  "auth" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "push_subscriptions_endpoint_check" CHECK (length("endpoint") <= 2048),
  CONSTRAINT "push_subscriptions_keys_check" CHECK (length("p256dh") <= 100 AND length("auth") <= 40)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions" ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" ("user_id", "created_at");
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "event" text NOT NULL,
  "channel" text NOT NULL,
  "enabled" boolean NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("user_id", "event", "channel"),
  CONSTRAINT "notification_preferences_event_check" CHECK ("event" IN ('check-in-open', 'released', 'approval-decided', 'booked-by-others')),
  CONSTRAINT "notification_preferences_channel_check" CHECK ("channel" IN ('push', 'mail'))
);
--> statement-breakpoint
CREATE TABLE "check_in_reminders" (
  "reservation_id" uuid PRIMARY KEY NOT NULL REFERENCES "reservations"("id") ON DELETE CASCADE,
  "queued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "check_in_reminders_queued_idx" ON "check_in_reminders" ("queued_at");
--> statement-breakpoint
-- The reminder job looks for plans whose check-in opened lately and is still pending.
CREATE INDEX "attendance_opens_idx" ON "attendance" ("check_in_opens_at") WHERE "status" = 'PENDING';
