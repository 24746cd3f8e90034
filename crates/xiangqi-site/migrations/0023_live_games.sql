-- The clock watcher walks the live games being played twice a second: an index
-- of those alone, so that the correspondence games beside them (a hundred
-- thousand on a large site) are not read each time to be passed over.
CREATE INDEX games_live_active ON games(id) WHERE status = 'active' AND clock_kind = 'live';
