-- GDPR: the controller's main establishment in the EEA where it is not its country (Art. 4(16), 56(1)), and the
-- country of the representative a controller without an establishment in the Union designated (Art. 27).
alter table tenant add column main_establishment text, add column eu_representative text;
