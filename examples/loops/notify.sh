#!/bin/sh
# Escalation: gets the parked or badly ended run as JSON on stdin (with a stable deliveryId). Here it
# appends it to notifications.log in the run's directory; a real one would page the owner.
cat >> notifications.log
echo >> notifications.log
