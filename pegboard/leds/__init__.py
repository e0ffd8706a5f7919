"""leds"""
