// Airline (airline.*), passengers (airline.passengers[n].*) and their legs
// (airline.passengers[n].legs[n].*), in the spec's order.
import { z } from 'zod';
import { amount, an, country, date } from './common.ts';

const text = an(255).optional();

export const airlineLeg = z.strictObject({
  ticketNumber: text,
  stopOverAllowed: text,
  restrictions: text,
  flightNumber: text,
  fareBasis: text,
  exchangeTicketNum: text,
  departureCountry: text,
  departureAirport: text,
  airlineName: text,
  airlineCode: text,
  departureTime: text,
  arrivalCountry: text,
  arrivalAirport: text,
  arrivalTime: text,
  couponNumber: text,
  classOfService: text,
  carrierCode: text,
  taxAmount: amount().optional(),
  feesAmount: amount().optional(),
  fareAmount: amount().optional(),
  departureTaxAmount: amount().optional(),
  departureDate: date.optional(),
  arrivalDate: date.optional(),
  timeToDeparture: an(10).optional(),
});

export const airlinePassenger = z.strictObject({
  type: text,
  name: text,
  ticketRestricted: text,
  ticketNumber: text,
  status: text,
  phone: text,
  frequentFlyerNumber: text,
  email: text,
  dob: text,
  checkDigit: text,
  residenceCountry: country.optional(),
  legs: z.array(airlineLeg).optional(),
});

export const airline = z.strictObject({
  totalTaxAmount: amount().optional(),
  totalFeesAmount: amount().optional(),
  totalFareAmount: amount().optional(),
  ticketIssueDate: date.optional(),
  ticketIssueAddress: text,
  thirdPartyBooking: text,
  bookingtype: text,
  ticketDeliveryMethod: text,
  bookingRefNum: text,
  agentName: text,
  agentCode: text,
  passengers: z.array(airlinePassenger).optional(),
});
export type Airline = z.infer<typeof airline>;
