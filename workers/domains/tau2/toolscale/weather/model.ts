// ToolScale weather's data model (tau2/domains/weather/data_model.py), field by field in its
// order. The module defines WeatherDB twice; the second (a DB of locations, forecasts and
// observations, extra keys refused) is the one its tools load. Pure TypeScript.

import { t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape, withDefault } from '../common.ts';

const list = () => [];
const Name = shape('Name', { city: t.str, state: t.str, country: t.str });
const Coordinates = shape('Coordinates', { lat: t.float, lon: t.float, elevation_m: t.float });
const ClimateNormalsMonth = shape('ClimateNormalsMonth', { avg_high_c: t.float, avg_low_c: t.float, precip_mm: t.float, snow_cm: t.float });
const SunTimesEntry = shape('SunTimesEntry', { sunrise_local: t.str, sunset_local: t.str, day_length_minutes: t.int });
const Units = shape('Units', { temperature: t.str, wind_speed: t.str, precipitation: t.str, pressure: t.str });
const Wind = shape('Wind', { speed_kph: t.float, gust_kph: t.float, direction_deg: t.int });
const PrecipitationDetails = shape('PrecipitationDetails', { probability_pct: t.int, type: t.str, amount_mm: t.float });
const HourlyForecastEntry = shape('HourlyForecastEntry', {
  time_utc: t.str,
  summary: t.str,
  temperature_c: t.float,
  feels_like_c: t.float,
  dewpoint_c: t.float,
  humidity_pct: t.int,
  pressure_hpa: t.float,
  wind: t.model(Wind),
  visibility_km: t.float,
  cloud_cover_pct: t.int,
  precipitation: t.model(PrecipitationDetails),
  uv_index: t.int,
});
const DailyPrecip = shape('DailyPrecip', { probability_pct: t.int, total_mm: t.float, snow_cm: t.float });
const DailyForecastEntry = shape('DailyForecastEntry', {
  date: t.str,
  summary: t.str,
  temp_min_c: t.float,
  temp_max_c: t.float,
  precipitation: t.model(DailyPrecip),
  wind_max_kph: t.float,
  uv_index_max: t.int,
  sunrise_local: t.str,
  sunset_local: t.str,
});
export const VerificationEntry = shape('VerificationEntry', {
  status: t.str,
  actual_high_c: t.float,
  actual_low_c: t.float,
  actual_precip_mm: t.float,
  notes: withDefault(t.str, () => ''),
});
const ObservationVariables = shape('ObservationVariables', {
  temperature_c: t.float,
  feels_like_c: t.float,
  dewpoint_c: t.float,
  humidity_pct: t.int,
  pressure_hpa: t.float,
  wind_speed_kph: t.float,
  wind_gust_kph: t.float,
  wind_direction_deg: t.int,
  precip_1h_mm: t.float,
  precip_24h_mm: t.float,
  snow_depth_cm: t.float,
  visibility_km: t.float,
  uv_index: t.int,
  cloud_cover_pct: t.int,
});
const QCCheck = shape('QCCheck', { check: t.str, result: t.str, details: t.str });
const QualityControl = shape('QualityControl', { qc_flag: t.str, checks: withDefault(t.list(t.model(QCCheck)), list) });
const Observation = shape('Observation', {
  observation_id: t.str,
  station_id: t.str,
  location_id: opt(t.str),
  timestamp_utc: t.str,
  variables: t.model(ObservationVariables),
  quality_control: t.model(QualityControl),
  ingested_at_utc: t.str,
});
const Location = shape('Location', {
  location_id: t.str,
  name: t.model(Name),
  coordinates: t.model(Coordinates),
  timezone: t.str,
  nearby_station_ids: t.list(t.str),
  climate_normals: t.dict(t.model(ClimateNormalsMonth)),
  sun_times: t.dict(t.model(SunTimesEntry)),
});
const Forecast = shape('Forecast', {
  forecast_id: t.str,
  location_id: t.str,
  source_model: t.str,
  issued_at_utc: t.str,
  valid_from_utc: t.str,
  valid_to_utc: t.str,
  units: t.model(Units),
  hourly: withDefault(t.list(t.model(HourlyForecastEntry)), list),
  daily: withDefault(t.list(t.model(DailyForecastEntry)), list),
  verification_by_date: withDefault(t.dict(t.model(VerificationEntry)), () => new Map()),
  attached_alert_ids: withDefault(t.list(t.str), list),
});
export const LocationCode = shape('LocationCode', { location_id: t.str, label: t.str });
export const WeatherDbSchema = database('WeatherDB', { locations: Location, forecasts: Forecast, observations: Observation });

// The shapes the tools read and write (a model's dump form).
export type LocationValue = PyModel & { location_id: string; name: { city: string; state: string; country: string } };
export type ForecastValue = PyModel & {
  location_id: string;
  source_model: string;
  issued_at_utc: string;
  valid_from_utc: string;
  valid_to_utc: string;
  hourly: (PyModel & { time_utc: string })[];
  daily: (PyModel & { date: string })[];
  verification_by_date: Map<string, PyValue>;
};
export type ObservationValue = PyModel & { location_id: PyValue; timestamp_utc: string; quality_control: { qc_flag: string } };
export type WeatherDb = { locations: Map<string, PyValue>; forecasts: Map<string, PyValue>; observations: Map<string, PyValue> };
