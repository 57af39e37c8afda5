"""Example Krónikás bots that use only the generated SDK (`kronikas_client`)."""
